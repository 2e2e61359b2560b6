// Words the daily deals' two pages share (daily.js, daily_play.js).
import { percent } from "./i18n.js";

// A matchpoint percentage ("–" when nobody else has played the deals yet).
export const percentText = percent;
