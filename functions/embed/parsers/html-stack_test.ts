import assert from "node:assert/strict";
import { Parser } from "htmlparser2";
import { fastenOpenElements } from "./html-stack.ts";

/** Every open and close event (implied or not) the parser emits for `html`. */
function events(html: string, fasten: boolean): string[] {
  const log: string[] = [];
  const parser = new Parser({
    onopentag: (name, _attributes, implied) => log.push(`<${name}${implied ? "?" : ""}>`),
    onclosetag: (name, implied) => log.push(`</${name}${implied ? "?" : ""}>`),
    ontext: (text) => log.push(text),
  }, { decodeEntities: true, lowerCaseTags: true, recognizeSelfClosing: true });
  if (fasten) fastenOpenElements(parser);
  parser.write(html);
  parser.end();
  return log;
}

Deno.test("fastenOpenElements() leaves htmlparser2's events as they were on awkward markup", () => {
  const pages = [
    "<p>one<div>two</div><p>three</p></p><ul><li>a<li>b</ul>",
    "<table><tr><td>x<td>y<tr><td>z</table><form><form>f</form>",
    "<div><span><b>unclosed<i>deeper</div>after</span><br></br><img src=x>",
    "<svg><foreignObject><p>in</p></foreignObject><path/></svg><math><mi>x</mi></math>",
    "<select><option>a<option>b</select><h1>t</h1></h2><dl><dt>k<dd>v</dl>",
    `${"<div>".repeat(300)}deep${"</div>".repeat(120)}<p>tail`,
  ];
  for (const page of pages) assert.deepEqual(events(page, true), events(page, false), page);
});

Deno.test("fastenOpenElements() finds the parser's stack (a new htmlparser2 may rename it)", () => {
  const parser = new Parser({});
  fastenOpenElements(parser);
  assert.ok(!Array.isArray((parser as unknown as { stack: unknown }).stack));
});
