"""A person at a table of computer players, without any screen: what both terminal front ends share.

The sessions hold the match (`session.Session`, the Barbu family) or the game (`besigue_session`, Bésigue),
the seats and the record file; `options` turns ``barbu play``'s flags into their settings; `labels` words
what a seat sees; `shadow` replays each finished deal with the expert in the person's seat to compare.
The full-screen game (`barbu.tui`, Textual) and the line-by-line one (`barbu.cli.textplay`,
`barbu.cli.besigue_plain`) both play through them, so the plain game needs neither Textual nor Rich from
here: nothing in this package imports a screen library.
"""
