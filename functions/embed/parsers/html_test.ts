import assert from "node:assert/strict";
import { parseHtml } from "./html.ts";

/** A page as Sphinx writes it: a `¶` permalink in each heading, one in a caption too. */
const SPHINX_PAGE = `<!DOCTYPE html>
<html><head><title>Basic Usage — tides 1.0 documentation</title></head>
<body><div class="document"><div role="main" class="body">
<section id="basic-usage">
<h1>Basic Usage<a class="headerlink" href="#basic-usage" title="Link to this heading">¶</a></h1>
<p>Read a gauge once a minute.</p>
<section id="slack-water">
<h2><a class="headerlink" href="#slack-water">§</a> Slack Water<a class="headerlink" href="#slack-water">¶</a></h2>
<p>Slack water is the turn of the tide.</p>
<div class="code-block-caption"><span class="caption-text">gauge.py</span><a class="headerlink" href="#id1">¶</a></div>
</section>
<section id="docs"><h2>Other generators <a class="header-anchor" href="#docs">#</a></h2>
<p>VitePress puts its anchor after the words.</p></section>
<section><h3>Bare signs §</h3><p>Some themes leave the sign as text.</p></section>
</section></div></div></body></html>`;

Deno.test("parseHtml() leaves Sphinx's and others' permalink signs out of headings and sections", async () => {
  const parsed = await parseHtml(SPHINX_PAGE);
  const headings = parsed.blocks.filter((block) => block.kind === "heading");
  assert.deepEqual(headings.map((block) => block.text), [
    "Basic Usage",
    "Slack Water",
    "Other generators",
    "Bare signs",
  ]);
  const paragraph = parsed.blocks.find((block) => block.text.startsWith("Slack water is"));
  assert.deepEqual(paragraph?.section, ["Basic Usage", "Slack Water"]);
  const text = parsed.blocks.map((block) => block.text).join("\n");
  assert.doesNotMatch(text, /[¶§]/);
  assert.match(text, /gauge\.py/);
  // A link's text that is not a permalink is kept.
  const linked = await parseHtml(
    '<html><body><p>See <a href="/x">the tide table</a>.</p></body></html>',
  );
  assert.equal(linked.blocks[0]?.text, "See the tide table.");
});

Deno.test("parseHtml() reads a page of 20,000 nested elements to its text", async () => {
  const depth = 20_000;
  const html = `<html><body>${"<div>".repeat(depth)}deep text${
    "</div>".repeat(depth)
  }</body></html>`;
  const parsed = await parseHtml(html);
  assert.deepEqual(parsed.blocks.map((block) => block.text), ["deep text"]);
});
