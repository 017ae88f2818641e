import { rerankStrategyNames } from "../../../shared/rerank/strategies.ts";
import { CONSOLE_SCRIPT } from "./script.gen.ts";
import { CONSOLE_STYLE } from "./style.ts";

function strategyOptions(selected: string): string {
  const options = [`<option value="">no rerank step</option>`].concat(
    rerankStrategyNames().map((name) =>
      `<option value="${name}"${name === selected ? " selected" : ""}>${name}</option>`
    ),
  );
  return options.join("");
}

/** The pipeline's options; `prefix` keeps the two sides of Compare apart. */
function pipelineFields(prefix: string, strategy: string): string {
  return `
  <fieldset><legend>Retrieval</legend>
    <label>mode <select name="${prefix}mode"><option>hybrid</option><option>dense</option>
      <option>sparse</option></select></label>
    <label>top k <input name="${prefix}top_k" type="number" min="1" max="100" placeholder="auto"></label>
    <label class="inline"><input name="${prefix}fusion" type="checkbox"> fusion</label>
    <label>variations <input name="${prefix}variations" type="number" min="1" max="10" value="4"></label>
  </fieldset>
  <fieldset><legend>Rerank</legend>
    <label>strategy <select name="${prefix}strategy">${strategyOptions(strategy)}</select></label>
    <label>top n <input name="${prefix}top_n" type="number" min="1" max="100" value="3"></label>
  </fieldset>`;
}

const NAMESPACE =
  `<label>namespace <input name="namespace" value="default" pattern="[A-Za-z0-9_\\-]{1,64}"
  autocomplete="off"></label>`;

const BODY = `
<header>
  <h1>sift console</h1>
  <p>Watch a question go through the pipeline and see why each passage ranked where it did.</p>
  <nav role="tablist" aria-label="Views">
    <button type="button" role="tab" id="tab-ask" aria-controls="ask" aria-selected="true">Ask</button>
    <button type="button" role="tab" id="tab-compare" aria-controls="compare" aria-selected="false">Compare</button>
    <button type="button" role="tab" id="tab-documents" aria-controls="documents" aria-selected="false">Documents</button>
    <button type="button" role="tab" id="tab-evaluations" aria-controls="evaluations" aria-selected="false">Evaluations</button>
    <button type="button" id="key-button">API key</button>
  </nav>
</header>
<main>
  <form id="key-form" hidden>
    <label>This sift needs an API key. It is kept in this tab's session storage only.
      <input name="key" type="password" autocomplete="off" required></label>
    <button class="primary">Use this key</button>
  </form>
  <section id="ask" role="tabpanel" aria-labelledby="tab-ask">
    <form id="ask-form">
      <label>Question <textarea name="query" required placeholder="What is reciprocal rank fusion?"></textarea></label>
      ${pipelineFields("", "two-turn")}
      <fieldset><legend>Scope</legend>${NAMESPACE}</fieldset>
      <button class="primary">Ask</button>
    </form>
    <div id="ask-run" aria-live="polite"></div>
  </section>
  <section id="compare" role="tabpanel" aria-labelledby="tab-compare" hidden>
    <form id="compare-form">
      <label>Question <textarea name="query" required placeholder="What is reciprocal rank fusion?"></textarea></label>
      <fieldset><legend>Scope</legend>${NAMESPACE}</fieldset>
      <div class="columns">
        <div><h2>Pipeline A</h2>${pipelineFields("a_", "none")}</div>
        <div><h2>Pipeline B</h2>${pipelineFields("b_", "two-turn")}</div>
      </div>
      <button class="primary">Compare</button>
    </form>
    <div id="compare-moves"></div>
    <div class="columns"><div id="compare-a" aria-live="polite"></div>
      <div id="compare-b" aria-live="polite"></div></div>
  </section>
  <section id="documents" role="tabpanel" aria-labelledby="tab-documents" hidden>
    <form id="documents-form">
      <fieldset><legend>Where</legend>${NAMESPACE}
        <label>id <input name="id" placeholder="derived from the text" autocomplete="off"></label>
        <label>title <input name="title" autocomplete="off"></label></fieldset>
      <label>Text, or one JSON document per line (.jsonl)
        <textarea name="text" rows="6"></textarea></label>
      <label>or files: PDF, Word, HTML, Markdown, text, .jsonl <input name="file" type="file" multiple
        accept=".pdf,.docx,.html,.htm,.md,.markdown,.txt,.jsonl,application/pdf,text/html,text/plain"></label>
      <button class="primary">Ingest</button>
    </form>
    <div id="documents-result" aria-live="polite"></div>
    <form id="search-form">
      <fieldset><legend>Find</legend>${NAMESPACE}
        <label>search <input name="query" required></label>
        <button>Search</button></fieldset>
    </form>
    <div id="search-result" aria-live="polite"></div>
  </section>
  <section id="evaluations" role="tabpanel" aria-labelledby="tab-evaluations" hidden>
    <p class="muted">Start a run with <code>deno task eval</code> or <code>POST /v1/evaluations</code>;
      open it here by its id. Runs opened in this tab are listed below.</p>
    <form id="evaluation-form"><fieldset><legend>Evaluation</legend>
      <label>id <input name="id" required autocomplete="off"></label><button>Open</button></fieldset></form>
    <div id="evaluation-result" aria-live="polite"></div>
    <ul id="evaluation-list"></ul>
  </section>
</main>`;

/** One self-contained page: no request leaves for another host, so a strict CSP holds. */
export const CONSOLE_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>sift console</title>
<link rel="icon" href="data:,">
<style>${CONSOLE_STYLE}</style>
</head><body>${BODY}
<script>${CONSOLE_SCRIPT}</script>
</body></html>
`;

export { CONSOLE_SCRIPT };
