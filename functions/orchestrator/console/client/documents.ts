/** Documents: ingest pasted text, files (PDF, Word, HTML, Markdown, text) or .jsonl, then find it. */
import { api, errorText, postJson } from "./api.ts";
import { $, busy, el, failure, field, fmt, input, messageOf, placeOf } from "./dom.ts";
import { documentsOf, uploadOf } from "./forms.ts";
import type { Found, Ingested } from "./wire.ts";

export function setUpDocuments(): void {
  const form = $<HTMLFormElement>("#documents-form");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const out = $("#documents-result");
    const namespace = field(form, "namespace").value || "default";
    const files = [...input(form, "file").files ?? []];
    const jsonlFile = files.length === 1 && files[0] && /\.jsonl$/i.test(files[0].name)
      ? files[0]
      : undefined;
    let documents: unknown[] | undefined;
    if (!files.length || jsonlFile) {
      const text = jsonlFile ? await jsonlFile.text() : field(form, "text").value;
      try {
        documents = documentsOf(text, jsonlFile ? jsonlFile.name : false, form);
      } catch (error) {
        return out.replaceChildren(failure("a line is not JSON: " + messageOf(error)));
      }
    }
    busy(form, true);
    try {
      const response = documents
        ? await postJson("/v1/documents", { namespace, documents })
        : await api("/v1/documents", { method: "POST", body: uploadOf(files, namespace) });
      if (!response.ok) return out.replaceChildren(failure(await errorText(response)));
      const body = await response.json() as Ingested;
      out.replaceChildren(el("section", { class: "part ingested" }, [
        el("h3", { text: "Ingested into " + body.namespace + ": " + body.chunks + " chunks" }),
        el("table", {}, [
          el("thead", {}, [
            el("tr", {}, [el("th", { text: "document" }), el("th", { text: "chunks" })]),
          ]),
          el(
            "tbody",
            {},
            body.documents.map((doc) =>
              el("tr", {}, [
                el("td", { text: doc.id }),
                el("td", { class: "num", text: doc.chunks }),
              ])
            ),
          ),
        ]),
      ]));
    } catch (error) {
      out.replaceChildren(failure("sift could not be reached: " + messageOf(error)));
    } finally {
      busy(form, false);
    }
  });
}

export function setUpSearch(): void {
  const form = $<HTMLFormElement>("#search-form");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const out = $("#search-result");
    try {
      const response = await postJson("/v1/search", {
        query: field(form, "query").value,
        namespace: field(form, "namespace").value || "default",
      });
      if (!response.ok) return out.replaceChildren(failure(await errorText(response)));
      const body = await response.json() as Found;
      out.replaceChildren(el("section", { class: "part found" }, [
        el("h3", { text: body.results.length + " found" }),
        el(
          "ol",
          {},
          body.results.map((hit) =>
            el("li", { "data-id": hit.id }, [
              el("strong", {
                text: (hit.metadata.title || hit.doc_id) + placeOf(hit.metadata) + " ",
              }),
              el("span", { class: "muted", text: hit.id + " · " + fmt(hit.score, 4) }),
              el("p", { text: hit.text.slice(0, 240) }),
            ])
          ),
        ),
      ]));
    } catch (error) {
      out.replaceChildren(failure("sift could not be reached: " + messageOf(error)));
    }
  });
}
