/** A prompt as data: see `prompts/README.md`. */
export type PromptTemplate = {
  readonly id: string;
  readonly version: number;
  readonly system: string;
  readonly user: string;
};

/** `answer@1`: how a prompt is named in headers and cache keys. */
export function promptTag(prompt: Pick<PromptTemplate, "id" | "version">): string {
  return `${prompt.id}@${prompt.version}`;
}

/**
 * Fills `{{name}}` placeholders in one pass, so a value that itself contains
 * `{{...}}` (a document, a query) is never expanded again. An unknown
 * placeholder is a programming error and throws.
 *
 * @example
 * renderTemplate("Hi {{name}}", { name: "Ada" }); // "Hi Ada"
 */
export function renderTemplate(
  template: string,
  values: Record<string, string | number>,
): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`Template placeholder {{${name}}} has no value`);
    return String(value);
  });
}

/** Breaks anything that looks like one of our tags, so text cannot end its block early. */
export function neutralizeTags(text: string): string {
  return text.replace(/<(\/?)\s*(documents?|question)\b/gi, "<$1 $2");
}

export type PromptDocument = {
  text: string;
  title?: string | undefined;
  url?: string | undefined;
  published?: string | undefined;
  authors?: string | string[] | undefined;
};

function attribute(name: string, value: string | string[] | undefined): string {
  if (value === undefined || value === "") return "";
  const flat = Array.isArray(value) ? value.join(", ") : value;
  return ` ${name}="${flat.replace(/["<>\n]/g, " ")}"`;
}

/**
 * Numbers documents from 1 inside `<document>` tags, with the metadata a
 * reader needs to judge them (title, source, date, authors).
 *
 * @example
 * renderDocuments([{ text: "Paris is in France.", title: "Geo" }]);
 * // '<document index="1" title="Geo">\nParis is in France.\n</document>'
 */
export function renderDocuments(documents: readonly PromptDocument[]): string {
  return documents
    .map((document, position) =>
      `<document index="${position + 1}"${attribute("title", document.title)}${
        attribute("source", document.url)
      }${attribute("published", document.published)}${attribute("authors", document.authors)}>\n${
        neutralizeTags(document.text)
      }\n</document>`
    )
    .join("\n");
}
