// Every page's language switcher (templates/_lang.html): loaded by the page whatever its own script.
import { wireSwitcher } from "./i18n.js";

wireSwitcher();
