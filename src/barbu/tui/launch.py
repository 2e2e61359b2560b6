"""``barbu play``: from the command-line flags to the running application."""

from __future__ import annotations

import argparse

from ..core.errors import RulesetError
from ..i18n import _, use
from ..play import besigue_session
from ..play.options import compare_from_args, parse_opponents, settings_from_args, tell_if_the_expert_lacks_numpy
from ..play.session import Session
from ..records.besigue import is_besigue_record


def play(args: argparse.Namespace) -> int:
    """Run the Textual game in the player's language (--lang, else the system's); say where the match was saved."""
    from .app import BarbuApp

    use(getattr(args, "lang", None))
    if args.delay < 0:
        raise RulesetError(_("--delay cannot be negative"))
    confirm_forced = bool(getattr(args, "confirm_forced", False))
    if args.resume and is_besigue_record(args.resume):
        game = besigue_session.resume_from_args(args)
        game.compare = compare_from_args(args, game.compare)
        app = BarbuApp(session=game, delay=args.delay, confirm_forced=confirm_forced)
    elif args.resume:
        session = Session.resume(args.resume, seat=args.seat)
        if args.opponents:  # new strengths for the computer seats of the resumed match
            kinds = parse_opponents(args.opponents, session.players, session.seat)
            known = session.shadow_known
            session = Session(session.match, session.seat, {**session.strengths, **kinds}, session.save_path)
            session.shadow_known = known
        compare = compare_from_args(args, session.compare)
        if compare != session.compare:
            session.compare, session.shadow_known = compare, {}
        app = BarbuApp(session=session, delay=args.delay, confirm_forced=confirm_forced)
    else:
        settings = settings_from_args(args)
        app = BarbuApp(settings, setup=not args.start)
        if not besigue_session.is_besigue_settings(settings):
            tell_if_the_expert_lacks_numpy([*settings.strengths().values(), settings.compare])
    if isinstance(app.session, Session):
        tell_if_the_expert_lacks_numpy([*app.session.strengths.values(), app.session.compare])
    code = app.run()  # (a note said before stays above the game, on the terminal it returns to)
    if app.session is not None and app.saved_to is not None:
        print(_("Saved to {path}. Resume with: barbu play --resume {path}").format(path=app.saved_to))
    return code or 0
