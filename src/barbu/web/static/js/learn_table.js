// "Learn to play" (templates/learn.html): the way to talk to the server first (learn_link.js, over HTTP), then the
// Barbu table's own drawing (table.js), which opens the table with it: each lesson on the table people play at.
import "./learn_link.js";
import "./table.js";
