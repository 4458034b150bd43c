// The drawings both playgrounds make: the local page (micrograd playground) has this file inlined
// into it, the site's page (site_src/assets/site.js) loads it as assets/site/playground_draw.js.
// `words` are the catalog's pg_* sentences (micrograd/text), in the page's language.
"use strict";
window.mgPlayground = {
  // Loss (left axis, 0 to `highest`) and accuracy (right axis, 0 to 1) by step (0 to `step`),
  // the axes labelled; an accuracy of null (not a number any more) breaks nothing, and with
  // accuracies null (a GPT's training: no classes) there is no right axis.
  curves(canvas, losses, accuracies, highest, step, words) {
    const c = canvas.getContext("2d"), w = canvas.width, h = canvas.height, L = 44, R = 40, T = 16, B = 28;
    c.clearRect(0, 0, w, h);
    c.strokeStyle = "#999"; c.lineWidth = 1; c.font = "11px sans-serif";
    c.beginPath(); c.moveTo(L, T); c.lineTo(L, h - B); c.lineTo(w - R, h - B);
    if (accuracies) c.lineTo(w - R, T);
    c.stroke();
    c.fillStyle = "#b91c1c"; c.textAlign = "right";
    c.fillText(highest.toPrecision(3), L - 4, T + 4); c.fillText("0", L - 4, h - B);
    c.textAlign = "left"; c.fillText(words.pg_loss, 2, 10);
    if (accuracies) {
      c.fillStyle = "#16a34a"; c.fillText("1", w - R + 4, T + 4); c.fillText("0", w - R + 4, h - B);
      c.textAlign = "right"; c.fillText(words.pg_accuracy, w - 2, 10);
    }
    c.fillStyle = "#444"; c.textAlign = "center";
    c.fillText("0", L, h - B + 14); c.fillText(String(step), w - R, h - B + 14);
    c.fillText(words.pg_axis_step, (L + w - R) / 2, h - 4);
    c.textAlign = "start";
    const line = (ys, scale, color) => {
      c.beginPath(); c.strokeStyle = color; c.lineWidth = 1.5;
      ys.forEach((y, i) => { const px = L + (ys.length < 2 ? 0 : i / (ys.length - 1) * (w - L - R));
                             const py = h - B - (y / scale) * (h - B - T); i ? c.lineTo(px, py) : c.moveTo(px, py); });
      c.stroke();
    };
    line(losses, highest, "#b91c1c");
    if (accuracies) line(accuracies, 1, "#16a34a");
  },
  // The ring around a point drawn at (x, y) with radius 4: its loss is > 0, it sends gradient back.
  ring(ctx, x, y) {
    ctx.beginPath(); ctx.arc(x, y, 7, 0, 2 * Math.PI); ctx.strokeStyle = "#111"; ctx.lineWidth = 1.5; ctx.stroke();
  },
};
