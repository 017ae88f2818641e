/** The console's stylesheet: light and dark from `prefers-color-scheme`, one column below 800 px. */
export const CONSOLE_STYLE = String.raw`
:root { color-scheme: light dark; --bg: #fbfbfa; --fg: #1d1f21; --muted: #5f6368; --line: #d6d8db;
  --card: #ffffff; --accent: #2358c4; --bar: #4a7bd8; --crit: #2e9d6a; --warn: #a15c00; --bad: #b3261e;
  --hl: #fff2b3; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
@media (prefers-color-scheme: dark) { :root { --bg: #15171a; --fg: #e6e7e9; --muted: #9aa0a6;
  --line: #3a3e44; --card: #1e2125; --accent: #8ab4f8; --bar: #6f9cf0; --crit: #5cc794;
  --warn: #f0b35a; --bad: #f28b82; --hl: #4a4020; } }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; background: var(--bg); color: var(--fg); }
header { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; padding: .75rem 1rem;
  border-bottom: 1px solid var(--line); }
header h1 { font-size: 1.15rem; margin: 0; }
header p { margin: 0; color: var(--muted); font-size: .85rem; flex: 1 1 16rem; }
nav { display: flex; flex-wrap: wrap; gap: .25rem; }
nav button[aria-selected="true"] { background: var(--accent); color: var(--bg); border-color: var(--accent); }
main { padding: 1rem; max-width: 1400px; margin: 0 auto; }
form { display: grid; gap: .6rem; margin-bottom: 1rem; }
fieldset { border: 1px solid var(--line); border-radius: 6px; display: flex; flex-wrap: wrap;
  gap: .5rem 1rem; padding: .5rem .75rem; min-width: 0; }
legend { color: var(--muted); font-size: .85rem; }
label { display: inline-flex; flex-direction: column; gap: .15rem; font-size: .85rem; color: var(--muted); }
label.inline { flex-direction: row; align-items: center; gap: .35rem; }
input, select, textarea, button { font: inherit; color: var(--fg); background: var(--card);
  border: 1px solid var(--line); border-radius: 4px; padding: .3rem .5rem; }
input[type="number"] { width: 5.5rem; }
textarea { width: 100%; min-height: 4.5rem; resize: vertical; }
button { cursor: pointer; }
button.primary { background: var(--accent); color: var(--bg); border-color: var(--accent); justify-self: start; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
section.part { background: var(--card); border: 1px solid var(--line); border-radius: 6px;
  padding: .6rem .8rem; margin: .6rem 0; overflow-x: auto; }
section.part h3 { margin: 0 0 .4rem; font-size: .95rem; }
section.part p { font-size: .9rem; margin: .3rem 0; }
table { border-collapse: collapse; width: 100%; font-size: .85rem; }
th, td { text-align: left; padding: .2rem .4rem; border-bottom: 1px solid var(--line); vertical-align: top; }
.num { font-variant-numeric: tabular-nums; text-align: right; white-space: nowrap; }
.muted { color: var(--muted); }
.badge { display: inline-block; font-size: .75rem; border: 1px solid var(--warn); color: var(--warn);
  border-radius: 3px; padding: 0 .3rem; margin-left: .4rem; }
.error { border: 1px solid var(--bad); color: var(--bad); border-radius: 6px; padding: .5rem .75rem;
  margin: .6rem 0; }
.passage { border: 1px solid var(--line); border-radius: 6px; padding: .5rem .7rem; margin: .5rem 0; }
.passage.hl, tr.hl { background: var(--hl); border-color: var(--warn); }
.passage h4 { margin: 0 0 .3rem; font-size: .9rem; }
.passage p { margin: .3rem 0; font-size: .85rem; }
.breakdown { display: grid; grid-template-columns: minmax(6rem, max-content) minmax(4rem, 1fr) max-content;
  gap: .15rem .6rem; align-items: center; font-size: .82rem; }
.track { background: color-mix(in srgb, var(--line) 60%, transparent); height: .6rem; border-radius: 3px; }
.fill { background: var(--bar); height: 100%; border-radius: 3px; }
.fill.criterion { background: var(--crit); }
.final { font-weight: 600; }
.answer { white-space: pre-wrap; font-size: .95rem; }
a.cite { font-weight: 600; text-decoration: none; color: var(--accent); padding: 0 .1rem; }
.timeline { display: grid; grid-template-columns: minmax(5rem, max-content) 1fr; gap: .25rem .6rem;
  font-size: .8rem; align-items: center; }
.timeline .track { position: relative; height: 1rem; }
.timeline .fill { position: absolute; top: 0; }
.columns { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
.moves { display: grid; grid-template-columns: 1fr 5rem 1fr; font-size: .8rem; margin: .5rem 0; }
.moves > * { min-width: 0; }
.moves ol { list-style: none; margin: 0; padding: 0; }
.moves li { height: 24px; line-height: 23px; white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; border-bottom: 1px dotted var(--line); }
.moves li.dropped { color: var(--muted); text-decoration: line-through; }
.moves svg { width: 100%; }
.moves line { stroke: var(--accent); stroke-width: 2; vector-effect: non-scaling-stroke; }
.moves line.dropped { stroke: var(--muted); stroke-dasharray: 4 3; }
#key-form { border: 1px solid var(--warn); border-radius: 6px; padding: .6rem .8rem; }
@media (max-width: 800px) { .columns { grid-template-columns: 1fr; } main { padding: .6rem; }
  .moves { grid-template-columns: 1fr 3rem 1fr; } }
`;
