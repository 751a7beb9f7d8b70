"""The pages' shared frame: one stylesheet, escaping, tables. Static HTML, no network."""

import html

CSS = """body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:66em;padding:0 1em;color:#222}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.6em 0}td,th{padding:.2em .7em;text-align:right;border-bottom:1px solid #eee}
td:first-child,th:first-child{text-align:left}img{max-width:100%;display:block;margin:.8em 0}
.verdict{font-size:1.15em;padding:.7em 1em;background:#eef6ee;border-left:5px solid #3a3}
.verdict.unsure{background:#fdf6e3;border-color:#c90}.note{color:#666;font-size:.9em}
.card{display:inline-block;border:1px solid #999;border-radius:4px;padding:0 .25em;margin:0 .1em;background:#fff;
font-family:monospace;font-size:1.1em}.red{color:#c00}.step{display:none}.step.on{display:block}
nav button{font-size:1em;margin-right:.4em}code{background:#f4f4f4;padding:0 .2em}"""


def esc(value) -> str:
    return html.escape(str(value))


def page(title: str, body: str, *, script: str = "") -> str:
    tail = f"<script>{script}</script>" if script else ""
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>{esc(title)}</title>'
            f"<style>{CSS}</style></head><body>\n<h1>{esc(title)}</h1>\n{body}\n{tail}</body></html>\n")


def table(header, rows) -> str:
    head = "".join(f"<th>{esc(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def images(paths) -> str:
    return "".join(f'<img src="{esc(p.name)}" alt="{esc(p.stem)}">' for p in paths)


def cards(names) -> str:
    """Cards such as 'Ah' as small boxes (hearts and diamonds red)."""
    out = []
    for name in names:
        red = " red" if name[-1:].lower() in "hd" else ""
        out.append(f'<span class="card{red}">{esc(name)}</span>')
    return "".join(out)


STEPPER_JS = """const steps=[...document.querySelectorAll('.step')];let at=0;
function show(i){at=Math.max(0,Math.min(steps.length-1,i));steps.forEach((s,k)=>s.classList.toggle('on',k===at));
document.getElementById('where').textContent=(at+1)+' / '+steps.length;}
document.getElementById('prev').onclick=()=>show(at-1);document.getElementById('next').onclick=()=>show(at+1);
document.getElementById('all').onclick=()=>steps.forEach(s=>s.classList.add('on'));
document.addEventListener('keydown',e=>{if(e.key==='ArrowRight')show(at+1);if(e.key==='ArrowLeft')show(at-1);});
function jump(){const t=location.hash.length>1&&document.getElementById(decodeURIComponent(location.hash.slice(1)));
const s=t&&t.closest('.step');if(s)show(steps.indexOf(s));}window.addEventListener('hashchange',jump);
show(0);if(location.hash==='#all-steps')steps.forEach(s=>s.classList.add('on'));else jump();"""


def stepper(steps: list[str]) -> tuple[str, str]:
    """Steps shown one at a time (buttons or arrow keys; #all-steps in the address shows them all, #ID the
    step holding the element ID, so a page can list links that jump to a step); every step is in the page's
    text."""
    nav = ('<nav><button id="prev">&larr; back</button><button id="next">next &rarr;</button>'
           '<button id="all">show all</button> step <span id="where"></span></nav>')
    body = "".join(f'<div class="step">{s}</div>' for s in steps)
    return nav + body, STEPPER_JS
