/**
 * The shell commands the README and the pages in docs/ show, and where each
 * is run. Every command in a fenced `sh` block is either run by
 * `run_commands_test.ts` as written (with the substitutions below) or listed
 * in `RUN_ELSEWHERE` with the test that runs it; `commands_test.ts` fails on a
 * command that is neither, so a command cannot go stale unseen.
 *
 * A new page needs nothing: its commands are found and run. Only a command
 * that cannot run here as written (it needs an account, takes an hour, or
 * writes into the repository) goes in `RUN_ELSEWHERE`, keyed by its exact
 * text as `commandsOf()` returns it (`deno task commands` prints them).
 */
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Where a command is run when not by the docs runner, and a string that proves that test runs it. */
export type Elsewhere = {
  /** A test file (or `.ci/run`), from the repository's root. */
  test: string;
  /** Text the test must contain: the script, config or flag it drives. */
  evidence: string;
  /** Why not here, and what part the test runs if not all of it. */
  why: string;
};

export const RUN_ELSEWHERE: Record<string, Elsewhere> = {
  "sudo apt-get install nginx": {
    test: ".ci/run",
    evidence: "missing+=(nginx)",
    why: "installs a system package; CI installs the same one before the suite",
  },
  "sudo cp deploy/nginx/sift.conf /etc/nginx/conf.d/sift.conf": {
    test: "tests/e2e/nginx_proxy_test.ts",
    evidence: "startNginx",
    why:
      "writes the system's nginx config; the test runs nginx on the same file from a temp prefix",
  },
  "sudo nginx -t && sudo nginx -s reload": {
    test: "tests/e2e/nginx_default_site_test.ts",
    evidence: '"-t"',
    why: "reloads the system's nginx; the test runs nginx -t on the same file beside Debian's " +
      "default site, then starts its own nginx on both",
  },
  "TRUSTED_PROXIES=127.0.0.1,::1 deno task start": {
    test: "tests/e2e/nginx_proxy_test.ts",
    evidence: "TRUSTED_PROXIES",
    why: "a server behind the reader's nginx; the test starts sift with TRUSTED_PROXIES behind one",
  },
  "curl -F file=@photo.txt http://127.0.0.1:${PORT:-8787}/v1/documents": {
    test: "tests/routes/documents_upload_test.ts",
    evidence: "photo.txt",
    why: "a refusal: curl exits non-zero on the 415; the test uploads the same file and checks it",
  },
  "curl -F id=alpha/README -F file=@alpha/README -F id=beta/README -F file=@beta/README -F skip_unchanged=true http://127.0.0.1:${PORT:-8787}/v1/documents":
    {
      test: "tests/routes/documents_upload_ids_test.ts",
      evidence: "skip_unchanged",
      why: "files of the reader's own folders; the test sends files under id fields, then again " +
        "with skip_unchanged=true",
    },
  "deno task ingest ~/papers --namespace papers": {
    test: "tests/e2e/ingest_files_test.ts",
    evidence: "runIngest([folder]",
    why:
      "a folder of the reader's own; the test ingests a folder of the fixtures, one file refused",
  },
  "deno task eval --dataset ~/datasets/scifact --limit 50": {
    test: "tests/e2e/eval_beir_test.ts",
    evidence: "--dataset",
    why: "a BEIR folder the reader brings; the test runs the command on ARAGOG in the BEIR layout",
  },
  "deno task eval --dataset ~/datasets/scifact --strategies none,one-turn,item:A_r,tot --modes sparse,hybrid+fusion --top-k 20 --keep 3":
    {
      test: "tests/e2e/eval_beir_test.ts",
      evidence: "--dataset",
      why: "a BEIR folder the reader brings; the test runs the full strategy and mode grid",
    },
  "deno run --allow-read --allow-write scripts/aragog-beir.ts ../shared/datasets/aragog /tmp/aragog-beir":
    {
      test: "tests/e2e/eval_beir_docs_test.ts",
      evidence: "aragogAvailable",
      why: "the first of the BEIR table's two commands; the test runs both as written, into a " +
        "temporary folder, and compares what they print with the table",
    },
  "deno task eval --dataset /tmp/aragog-beir --limit 5 --strategies none,one-turn,item:A_r,tot --modes sparse,sparse+fusion,hybrid --out /tmp/aragog-beir-out":
    {
      test: "tests/e2e/eval_beir_docs_test.ts",
      evidence: "withoutSeconds",
      why: "in-process over SIFT_DATA_DIR, so not beside the docs runner's server; the test runs " +
        "it after the converter and compares its table with the page's",
    },
  "deno task test": {
    test: ".ci/run",
    evidence: "npx -y deno@2.9.6 task test",
    why: "the whole suite: CI runs exactly this",
  },
  "deno task eval --dataset ../shared/datasets/aragog --variants none,one-turn,two-turn --limit 20 --out eval-out":
    {
      test: "tests/e2e/eval_cli_test.ts",
      evidence: "scripts/eval.ts",
      why:
        "writes eval-out/ into the repository; the test runs the same CLI into a temporary folder",
    },
  "deno task bench": {
    test: "tests/e2e/bench_regression_test.ts",
    evidence: "scripts/bench-index.ts",
    why: "about 40 minutes; the test runs its index and dense sections at small sizes",
  },
  "deno task bench --only growth,sparse": {
    test: "tests/e2e/bench_growth_test.ts",
    evidence: "growth,sparse",
    why: "half an hour and bench.json rewritten; the test runs both sections small, elsewhere",
  },
  "deno task bench --only growth --growth-sizes 30000,100000,300000,1000000": {
    test: "tests/e2e/bench_growth_test.ts",
    evidence: "--growth-sizes",
    why: "about 45 minutes and 7 GB; the test runs the same flag at 1k and 2k chunks",
  },
  "deno task workers:dev": {
    test: "tests/e2e/workers_test.ts",
    evidence: "WORKER_CONFIGS",
    why: "serves until stopped; the test runs wrangler dev over the same configs",
  },
  "npx wrangler deploy -c workers/state/wrangler.toml": {
    test: "tests/docs/run_commands_test.ts",
    evidence: "workers:check",
    why: "needs a Cloudflare account; workers:check runs wrangler deploy --dry-run of this config",
  },
  "npx wrangler deploy -c functions/rerank/wrangler.toml": {
    test: "tests/docs/run_commands_test.ts",
    evidence: "workers:check",
    why: "needs a Cloudflare account; workers:check runs wrangler deploy --dry-run of this config",
  },
  "npx wrangler deploy -c functions/orchestrator/wrangler.toml": {
    test: "tests/docs/run_commands_test.ts",
    evidence: "workers:check",
    why: "needs a Cloudflare account; workers:check runs wrangler deploy --dry-run of this config",
  },
  "docker run --rm -d --name jaeger -p 16686:16686 -p 4318:4318 jaegertracing/all-in-one:latest": {
    test: "tests/e2e/tracing_test.ts",
    evidence: "OTEL_EXPORTER_OTLP_ENDPOINT",
    why: "needs Docker; the test runs the same export (OTEL_DENO=true) into a loopback OTLP " +
      "receiver standing where Jaeger's port 4318 would",
  },
  "LLM_PROVIDER=workers-ai CLOUDFLARE_ACCOUNT_ID=<32 hex characters> CLOUDFLARE_API_TOKEN=<a token with Workers AI Read> deno task start":
    {
      test: "tests/live/workers_ai_test.ts",
      evidence: "LLM_PROVIDER",
      why: "needs a Cloudflare account; the live tests run this provider with a token, and " +
        "tests/routes/workers_ai_provider_test.ts against a fake of the REST API",
    },
  'curl http://127.0.0.1:8787/v2/rerank -H \'content-type: application/json\' -d \'{\n  "model": "@cf/baai/bge-reranker-base",\n  "query": "What is the capital of France?",\n  "documents": ["Bananas are yellow.", "Paris is the capital of France."],\n  "top_n": 1\n}\'':
    {
      test: "tests/live/workers_ai_test.ts",
      evidence: "@cf/baai/bge-reranker-base",
      why: "needs Workers AI (a Cloudflare account); the live test sends this request with a " +
        "token, tests/routes/workers_ai_rerank_test.ts against a fake of the REST API",
    },
  "deno deploy --org <your-org> --app sift --prod": {
    test: "tests/docs/deno_deploy_test.ts",
    evidence: "DENO_DEPLOYMENT_ID",
    why: "needs a Deno Deploy account; the test type-checks and starts the entry as Deploy would",
  },
};

/** README.md and every page in docs/, as paths from the repository's root. */
export async function docPages(): Promise<string[]> {
  const pages = ["README.md"];
  for await (const entry of Deno.readDir(`${ROOT}/docs`)) {
    if (entry.isFile && entry.name.endsWith(".md")) pages.push(`docs/${entry.name}`);
  }
  return pages.sort((
    a,
    b,
  ) => (a === "README.md" ? -1 : b === "README.md" ? 1 : a.localeCompare(b)));
}

/**
 * The commands of every fenced `sh` (or `bash`, `shell`) block, in order: a
 * line ending in `\` or inside an open quote goes on into the next, and a
 * trailing `# comment` is dropped. Blank and comment-only lines are skipped.
 */
export function commandsOf(markdown: string): string[] {
  const commands: string[] = [];
  let fence: string | undefined;
  let pending = "";
  for (const line of markdown.split("\n")) {
    const marker = /^\s*(```+|~~~+)\s*([\w-]*)/.exec(line);
    if (marker) {
      if (fence === undefined) {
        fence = /^(sh|bash|shell|console)$/.test(marker[2]!) ? "sh" : "other";
      } else fence = undefined;
      pending = "";
      continue;
    }
    if (fence !== "sh") continue;
    const joined = pending ? `${pending}\n${line}` : line;
    const { open, comment } = scan(joined);
    if (open) {
      pending = joined;
      continue;
    }
    let command = (comment === undefined ? joined : joined.slice(0, comment)).trimEnd();
    if (command.endsWith("\\")) {
      pending = command;
      continue;
    }
    pending = "";
    command = command.replace(/\\\n\s*/g, "").trim();
    if (command) commands.push(command);
  }
  return commands;
}

/** Whether a quote is left open at the end, and where a `#` comment starts outside quotes. */
function scan(text: string): { open: boolean; comment?: number } {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quote) {
      if (char === "\\" && quote === '"') i++;
      else if (char === quote) quote = undefined;
    } else if (char === "\\") i++;
    else if (char === "'" || char === '"') quote = char;
    else if (char === "#" && (i === 0 || /\s/.test(text[i - 1]!))) {
      return { open: false, comment: i };
    }
  }
  return { open: quote !== undefined };
}

/** What the runner does with a command that starts a server: which port variable it waits on. */
export function serverOf(command: string): { portVariable: string; ready: string } | undefined {
  if (/\btask (start|serve)\b/.test(command)) return { portVariable: "PORT", ready: "/healthz" };
  if (/\btask offline-model\b/.test(command)) {
    return { portVariable: "OFFLINE_MODEL_PORT", ready: "/v1/models" };
  }
  return undefined;
}

/** Where a command is run when the docs runner does not run it. */
export function elsewhere(command: string): Elsewhere | undefined {
  return RUN_ELSEWHERE[runnable(command)];
}

/** The command as the runner runs it: the pinned Deno from npm is the Deno running the tests. */
export function runnable(command: string): string {
  return command.replaceAll("npx -y deno@2.9.6 ", "deno ");
}

if (import.meta.main) {
  for (const page of await docPages()) {
    for (const command of commandsOf(await Deno.readTextFile(`${ROOT}/${page}`))) {
      console.log(`${page}\t${elsewhere(command) ? "elsewhere" : "runner"}\t${command}`);
    }
  }
}
