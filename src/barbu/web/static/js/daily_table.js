// The Barbu family's daily deals (templates/daily_table.html): the way to talk to the server first (daily_link.js,
// over HTTP), then the Barbu table's own drawing (table.js), which opens the table with it.
import "./daily_link.js";
import "./table.js";
