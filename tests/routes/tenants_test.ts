/**
 * Tenants (#23): with `API_KEYS=ka:acme,kb:globex,kc:acme,kz`, a second key
 * of a tenant sees what the first stored; the other tenant, and the bare key,
 * find nothing of it on any route or MCP tool, whatever they name, and get
 * 404 for its jobs and evaluation runs.
 */
import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import { Runtime } from "../../compose/runtime.ts";
import type { Job, JobBackend, JobMessage } from "../../shared/jobs/types.ts";
import { idempotencySlotOf } from "../../shared/jobs/types.ts";
import { connectMcp, textOf } from "../helpers/mcp_client.ts";
import { readEvents } from "./helpers.ts";

const ENV = {
  DEMO_CORPUS: "false",
  API_KEYS: "ka:acme,kb:globex,kc:acme,kz",
  WEBHOOK_SECRET: "whsec_" + btoa("sift-test-webhook-secret-0123456789"),
};

/** Jobs kept, never run: no callback is ever delivered (no traffic leaves the test). */
class KeptJobs implements JobBackend {
  readonly name = "kept";
  readonly jobs = new Map<string, Job>();
  readonly bySlot = new Map<string, string>();
  readonly messages: JobMessage[] = [];
  get(id: string) {
    return Promise.resolve(this.jobs.get(id));
  }
  create(job: Job) {
    const slot = idempotencySlotOf(job);
    const existing = slot ? this.jobs.get(this.bySlot.get(slot) ?? "") : undefined;
    if (existing) return Promise.resolve({ job: existing, created: false });
    this.jobs.set(job.id, job);
    if (slot) this.bySlot.set(slot, job.id);
    return Promise.resolve({ job, created: true });
  }
  save(job: Job) {
    this.jobs.set(job.id, job);
    return Promise.resolve();
  }
  enqueue(message: JobMessage) {
    this.messages.push(message);
    return Promise.resolve();
  }
}

function tenantsApp() {
  const jobs = new KeptJobs();
  const app = createSiftApp({ runtime: new Runtime({ jobs: () => jobs }) });
  const call = (key: string, method: string, path: string, body?: unknown) =>
    app.request(path, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }, ENV);
  const post = (key: string, path: string, body: unknown) => call(key, "POST", path, body);
  const search = async (key: string, body: Record<string, unknown> = {}) => {
    const response = await post(key, "/v1/search", { query: "lighthouse keeper", ...body });
    assert.equal(response.status, 200, await response.clone().text());
    return ((await response.json()) as { results: { doc_id: string }[] }).results
      .map((hit) => hit.doc_id);
  };
  const fetchApp = (input: string | URL | Request, init?: RequestInit) =>
    Promise.resolve(app.fetch(new Request(input, init), ENV));
  return { app, jobs, call, post, search, fetchApp };
}

const SECRET_DOCUMENT = {
  id: "secretdoc",
  text: "The lighthouse keeper's ledger: acme's confidential figures for the quarter.",
};

async function withAcmeDocument() {
  const sift = tenantsApp();
  const ingested = await sift.post("ka", "/v1/documents", { documents: [SECRET_DOCUMENT] });
  assert.equal(ingested.status, 201, await ingested.text());
  return sift;
}

Deno.test("a second key of a tenant finds its documents; the other tenant and a bare key find nothing", async () => {
  const { search } = await withAcmeDocument();
  assert.deepEqual(await search("kc"), ["secretdoc"]);
  assert.deepEqual(await search("kc", { namespace: "default" }), ["secretdoc"]);
  for (const key of ["kb", "kz"]) {
    assert.deepEqual(await search(key), [], key);
    assert.deepEqual(await search(key, { namespace: "default" }), [], key);
    assert.deepEqual(await search(key, { mode: "dense" }), [], key);
  }
});

Deno.test("the same namespace name under two tenants is two indexes", async () => {
  const { post, search } = await withAcmeDocument();
  const theirs = { id: "secretdoc", text: "The lighthouse keeper at globex keeps other books." };
  assert.equal(
    (await post("kb", "/v1/documents", { documents: [theirs], namespace: "default" })).status,
    201,
  );
  const texts = async (key: string) => {
    const response = await post(key, "/v1/search", { query: "lighthouse keeper" });
    return ((await response.json()) as { results: { text: string }[] }).results.map((r) => r.text);
  };
  assert.deepEqual(await texts("kb"), [theirs.text]);
  assert.deepEqual(await texts("ka"), [SECRET_DOCUMENT.text]);
  assert.deepEqual(await search("kz"), []);
});

Deno.test("another tenant's DELETE of a document is a 404 and leaves it in place", async () => {
  const { call, search } = await withAcmeDocument();
  for (const key of ["kb", "kz"]) {
    const refused = await call(key, "DELETE", "/v1/documents/secretdoc?namespace=default");
    assert.equal(refused.status, 404, key);
  }
  assert.deepEqual(await search("ka"), ["secretdoc"]);
  assert.equal((await call("kc", "DELETE", "/v1/documents/secretdoc")).status, 200);
  assert.deepEqual(await search("ka"), []);
});

Deno.test("another tenant's GET of a document is a 404, and its listing holds none of them", async () => {
  const { call } = await withAcmeDocument();
  const read = await call("kc", "GET", "/v1/documents/secretdoc");
  assert.equal(read.status, 200, await read.clone().text());
  const listed = async (key: string) => {
    const response = await call(key, "GET", "/v1/documents?namespace=default");
    assert.equal(response.status, 200, await response.clone().text());
    return ((await response.json()) as { data: { id: string }[] }).data.map((d) => d.id);
  };
  assert.deepEqual(await listed("kc"), ["secretdoc"]);
  for (const key of ["kb", "kz"]) {
    const refused = await call(key, "GET", "/v1/documents/secretdoc?namespace=default");
    assert.equal(refused.status, 404, key);
    assert.ok(!(await listed(key)).includes("secretdoc"), key);
  }
});

Deno.test("/v1/query and chat of another tenant retrieve nothing of it", async () => {
  const { post } = await withAcmeDocument();
  const retrieved = async (key: string) => {
    const response = await post(key, "/v1/query", { query: "What is in the lighthouse ledger?" });
    assert.equal(response.status, 200);
    const events = await readEvents(response);
    const end = events.find((event) => event.event === "retrieval-end")?.data as {
      results: { doc_id: string }[];
    };
    return end.results.map((result) => result.doc_id);
  };
  assert.deepEqual(await retrieved("kc"), ["secretdoc"]);
  assert.deepEqual(await retrieved("kb"), []);
  const chat = await post("kb", "/v1/chat/completions", {
    model: "sift",
    messages: [{ role: "user", content: "What is in the lighthouse ledger?" }],
  });
  const text = await chat.text();
  assert.doesNotMatch(text, /secretdoc|confidential/);
});

Deno.test("MCP search and resources of another tenant find nothing of it", async () => {
  const { fetchApp } = await withAcmeDocument();
  const found = async (key: string) => {
    const { client, close } = await connectMcp("http://sift.test", {
      apiKey: key,
      fetch: fetchApp as typeof fetch,
    });
    try {
      const result = await client.callTool({
        name: "search",
        arguments: { query: "lighthouse keeper" },
      });
      const listed = await client.listResources();
      const read = await client.readResource({ uri: "sift://default/secretdoc" })
        .then((resource) => resource.contents.length, () => 0);
      return {
        search: textOf(result).includes("secretdoc"),
        listed: listed.resources.length,
        read,
      };
    } finally {
      await close();
    }
  };
  assert.deepEqual(await found("kc"), { search: true, listed: 1, read: 1 });
  assert.deepEqual(await found("kb"), { search: false, listed: 0, read: 0 });
});

Deno.test("another tenant's job is a 404; the same idempotency key makes a job per tenant", async () => {
  const { post, call, jobs } = tenantsApp();
  const job = (key: string) =>
    post(key, "/v1/jobs", {
      route: "/v1/search",
      body: { query: "lighthouse" },
      callback_url: "https://hooks.example.com/sift",
      idempotency_key: "nightly-1",
    });
  const acme = await job("ka");
  assert.equal(acme.status, 202);
  const { id } = (await acme.json()) as { id: string };
  assert.equal((await call("kc", "GET", `/v1/jobs/${id}`)).status, 200);
  for (const key of ["kb", "kz"]) {
    const refused = await call(key, "GET", `/v1/jobs/${id}`);
    assert.equal(refused.status, 404, key);
    assert.equal(((await refused.json()) as { error: { type: string } }).error.type, "not_found");
  }
  const globex = (await (await job("kb")).json()) as { id: string };
  assert.notEqual(globex.id, id, "globex's key got acme's job back");
  assert.equal(((await (await job("kc")).json()) as { id: string }).id, id);
  assert.equal(jobs.jobs.get(id)?.tenant, "acme");
});

Deno.test("another tenant's evaluation run is a 404, and its next slice runs as its tenant", async () => {
  const { post, call, jobs } = await withAcmeDocument();
  const started = await post("ka", "/v1/evaluations", {
    dataset: { questions: [{ id: "q1", question: "What is in the lighthouse ledger?" }] },
    variants: ["none"],
    run_id: "acme-run",
  });
  assert.equal(started.status, 202, await started.clone().text());
  assert.equal((await call("kc", "GET", "/v1/evaluations/acme-run")).status, 200);
  for (const key of ["kb", "kz"]) {
    assert.equal((await call(key, "GET", "/v1/evaluations/acme-run")).status, 404, key);
    assert.equal((await call(key, "GET", "/v1/evaluations/acme-run/report")).status, 404, key);
  }
  assert.deepEqual(jobs.messages, [
    { job_id: "acme-run", step: "evaluate", from: 0, tenant: "acme" },
  ]);
  // The same run id under globex is a run of its own, not a conflict with acme's.
  const theirs = await post("kb", "/v1/evaluations", {
    dataset: { questions: [{ id: "q9", question: "Something else entirely?" }] },
    variants: ["none"],
    run_id: "acme-run",
  });
  assert.equal(theirs.status, 202, await theirs.clone().text());
});

Deno.test("cached results are a tenant's own: a rubric cached for acme is not globex's", async () => {
  const { post } = tenantsApp();
  const cached = async (key: string) => {
    const response = await post(key, "/v1/rubrics", { query: "How do lighthouses work?" });
    assert.equal(response.status, 200);
    return ((await response.json()) as { cached: boolean }).cached;
  };
  assert.equal(await cached("ka"), false);
  assert.equal(await cached("kc"), true);
  assert.equal(await cached("kb"), false);
  assert.equal(await cached("kz"), false);
});
