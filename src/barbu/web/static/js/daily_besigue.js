// Bésigue's daily deals (templates/daily_besigue.html): the way to talk to the server first (daily_link.js, over
// HTTP), then the Bésigue table's own drawing (besigue.js), which opens the table with it.
import "./daily_link.js";
import "./besigue.js";
