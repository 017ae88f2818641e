/**
 * The console's script (`GET /`), in the browser: this folder is bundled
 * into one script by `deno task build:console` (scripts/build-console.ts),
 * which writes it to ../script.gen.ts for page.ts to inline. Type-checked
 * with the DOM's types and without Deno's (this folder's deno.json).
 */
import { api, setUpKey } from "./api.ts";
import { setUpAsk, setUpCompare } from "./ask.ts";
import { setUpDocuments, setUpSearch } from "./documents.ts";
import { setUpEvaluations } from "./evaluations.ts";
import { setUpTabs } from "./tabs.ts";

setUpKey();
setUpTabs();
setUpAsk();
setUpCompare();
setUpDocuments();
setUpSearch();
setUpEvaluations();

// A cheap call that needs the key: ask for one up front when the server wants it.
api("/v1/models").then((response) => response.body?.cancel(), () => {});
