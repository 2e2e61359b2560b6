// Words the daily deals' two pages share (daily.js, daily_play.js).
import { num } from "./i18n.js";

// A matchpoint percentage, "62.5 %" ("–" when nobody else has played the deals yet).
export function percentText(p) {
  return p === null || p === undefined ? "–" : `${num(Math.round(p * 10) / 10)} %`;
}
