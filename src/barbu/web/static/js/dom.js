// The one DOM helper every page uses: el("button", { class: "primary", "data-seat": 2 }, "Take") builds an element.
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("data-") || k.startsWith("aria-") || k === "title" || k === "role") e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

// The server's word that its computer players think faster for a while (it is busy), or no longer: shown at the
// foot of the table, the second for a few seconds only. `msg.message` comes worded in the page's language.
export function showBusy(msg) {
  const box = document.getElementById("busy");
  if (!box) return;
  box.textContent = msg.message;
  box.hidden = false;
  clearTimeout(showBusy.timer);
  if (!msg.busy) showBusy.timer = setTimeout(() => { box.hidden = true; }, 5000);
}
