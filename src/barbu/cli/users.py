"""``barbu users``: the operator's side of the accounts, over the server's database.

``list``, ``reset-password NAME`` (prints a one-time link that expires), ``delete NAME`` (the account and
its personal data go; its matches stay under "a deleted player") and ``ban NAME`` (``--lift`` or ``unban NAME`` to
undo).

The moderation (docs/moderation.md): ``role NAME moderator|player`` gives or takes the moderators' desk;
``mute NAME`` (``--hours N``, else until lifted; ``--lift``), ``remove club|event TARGET`` and ``restore
club|event TARGET`` act as a moderator does, and ``log`` prints the moderators' log.  Every ban, mute,
removal and deletion made here is logged too, with the operator as its author and ``--reason``.
"""

from __future__ import annotations

import argparse
import sys

from rich.console import Console
from rich.table import Table as RichTable

from ..i18n import _
from .common import add_database_argument


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_database_argument(p)
    act = p.add_subparsers(dest="action", metavar="ACTION")
    act.add_parser("list", help=_("every account, with its matches and whether it is banned or a moderator"))
    reset = act.add_parser("reset-password", help=_("print a one-time link to choose a new password"))
    reset.add_argument("name", help=_("the user name"))
    reset.add_argument(
        "--url",
        default="http://127.0.0.1:8000",
        help=_("the server's address as players reach it, for the link (default http://127.0.0.1:8000)"),
    )
    delete = act.add_parser(
        "delete", help=_('delete an account and its personal data (its matches stay, under "a deleted player")')
    )
    delete.add_argument("name", help=_("the user name"))
    delete.add_argument("--yes", action="store_true", help=_("do not ask for confirmation"))
    ban = act.add_parser("ban", help=_("close an account: it can no longer log in, and its sessions end"))
    ban.add_argument("name", help=_("the user name"))
    ban.add_argument("--lift", action="store_true", help=_("open a banned account again"))
    ban.add_argument("--reason", help=_("why, for the moderators' log"))
    unban = act.add_parser("unban", help=_("open a banned account again (as ban --lift)"))
    unban.add_argument("name", help=_("the user name"))
    unban.add_argument("--reason", help=_("why, for the moderators' log"))
    delete.add_argument("--reason", help=_("why, for the moderators' log"))
    role = act.add_parser("role", help=_("make an account a moderator, or a player again"))
    role.add_argument("name", help=_("the user name"))
    role.add_argument("role", choices=("moderator", "player"), help=_("moderator or player"))
    mute = act.add_parser("mute", help=_("mute an account: it plays on, but writes nothing others read"))
    mute.add_argument("name", help=_("the user name"))
    mute.add_argument("--hours", type=int, help=_("how long (default: until lifted)"))
    mute.add_argument("--lift", action="store_true", help=_("lift the mute"))
    mute.add_argument("--reason", required=True, help=_("why, for the moderators' log"))
    for verb, words in (
        ("remove", _("hide a club or an event from every list and page (restore undoes it)")),
        ("restore", _("show a removed club or event again")),
    ):
        one = act.add_parser(verb, help=words)
        one.add_argument("kind", choices=("club", "event"), help=_("club or event"))
        one.add_argument("target", help=_("the club's address (/c/ADDRESS) or the event's number (/e/NUMBER)"))
        one.add_argument("--reason", required=True, help=_("why, for the moderators' log"))
    log = act.add_parser("log", help=_("the moderators' log: who did what, when and why"))
    log.add_argument("--limit", type=int, default=50, help=_("how many entries, the newest first (default 50)"))
    p.set_defaults(func=cmd_users, users_parser=p)


def cmd_users(args: argparse.Namespace) -> int:
    from ..web.db.storage import Store, sqlite_url

    out, err = Console(), Console(stderr=True)
    if not args.action:
        args.users_parser.print_help()
        return 0
    db = args.db or sqlite_url("barbu-web.db")
    if "://" not in db:
        db = sqlite_url(db)
    try:
        store = Store(db)
    except Exception as e:  # noqa: BLE001 - one plain line, never a traceback
        reason = str(getattr(e, "orig", None) or e).strip().splitlines()[0]
        err.print(_("barbu: error: cannot open the database: {reason}").format(reason=reason), markup=False)
        return 2
    try:
        return _run(args, store, out, err)
    finally:
        store.close()


def _run(args: argparse.Namespace, store, out: Console, err: Console) -> int:
    from ..web.accounts import store as db
    from ..web.accounts.service import find_user, reset_link
    from ..web.clubs.store import leave_all as leave_clubs

    if args.action in ("log", "remove", "restore"):
        return _moderate(args, store, out, err)
    if args.action == "list":
        with store.engine.connect() as conn:
            rows = db.list_users(conn)
        if not rows:
            out.print(_("No accounts yet."))
            return 0
        table = RichTable(_("Name"), _("Since"), _("Matches"), _("Session until"), _("Banned"), _("Moderator"))
        for account, last, played in rows:
            table.add_row(
                account.name,
                account.created_at.date().isoformat(),
                str(played),
                last.date().isoformat() if last else "—",
                _("yes") if account.banned else "",
                _("yes") if account.role == "moderator" else "",
            )
        out.print(table)
        return 0
    user = find_user(store, args.name)
    if user is None:
        err.print(_("barbu: error: there is no account named {name}").format(name=args.name), markup=False)
        return 2
    if args.action in ("role", "mute"):
        return _moderate(args, store, out, err, user)
    if args.action == "reset-password":
        token, expires = reset_link(store, user)
        base = args.url.rstrip("/")
        out.print(
            _(
                "A one-time link for {name} to choose a new password, valid until {when} (UTC); "
                "an earlier link no longer works:"
            ).format(name=user.name, when=expires.strftime("%Y-%m-%d %H:%M")),
            markup=False,
        )
        out.print(f"{base}/account/reset#key={token}", markup=False, soft_wrap=True)
        return 0
    if args.action == "delete":
        if not args.yes:
            if not sys.stdin.isatty():
                err.print(
                    _("barbu: error: add --yes to delete {name} without being asked").format(name=user.name),
                    markup=False,
                )
                return 2
            answer = input(
                _(
                    'Delete the account {name} and its personal data? Its matches stay, under "a deleted '
                    'player". [y/N] '
                ).format(name=user.name)
            )
            if answer.strip().lower() not in ("y", "yes", _("y"), _("yes")):
                out.print(_("Nothing was deleted."))
                return 1
        from ..web.moderation.service import forget_player

        with store.engine.begin() as conn:
            _logged(conn, "delete", user, args.reason)
            forget_player(conn, user.id)  # the reports about him go; the log keeps what was done
            leave_clubs(conn, user.id)  # a club he owns passes to its oldest admin or member, else is deleted
            db.delete_user(conn, user.id)
        out.print(_("The account {name} is deleted.").format(name=user.name), markup=False)
        return 0
    # ban (unban: ban --lift)
    args.lift = args.action == "unban" or args.lift
    with store.engine.begin() as conn:
        db.set_banned(conn, user.id, not args.lift)
        if not args.lift:
            db.end_sessions(conn, user.id)
        _logged(conn, "unban" if args.lift else "ban", user, args.reason)
    out.print(
        (
            _("{name} may log in again.")
            if args.lift
            else _("{name} is banned: logged out everywhere, and can no longer log in.")
        ).format(name=user.name),
        markup=False,
    )
    return 0


def _logged(conn, action: str, user, reason: str | None) -> None:
    """A ban, its lifting or a deletion made at the shell, in the moderators' log (the operator its author)."""
    from ..web.moderation import store as log

    log.add_entry(conn, None, None, action, "player", str(user.id), user.name, reason or f"barbu users {action}")


def _moderate(args: argparse.Namespace, store, out: Console, err: Console, user=None) -> int:
    """``role``, ``mute``, ``remove``, ``restore`` and ``log``: the moderators' actions, as the operator."""
    from sqlalchemy import select

    from ..i18n import current
    from ..web.clubs import store as clubs
    from ..web.common.errors import WebError
    from ..web.common.wording import word
    from ..web.moderation import service as moderation
    from ..web.moderation import store as log

    if args.action == "log":
        with store.engine.connect() as conn:
            entries = log.entries(conn, max(1, args.limit))
        if not entries:
            out.print(_("The moderators' log is empty."))
            return 0
        table = RichTable(_("When (UTC)"), _("Who"), _("Action"), _("On"), _("Why"))
        for e in entries:
            what = e.action + (f" → {e.until:%Y-%m-%d %H:%M}" if e.until and e.until < moderation.FOREVER else "")
            table.add_row(
                e.at.strftime("%Y-%m-%d %H:%M"),
                e.moderator or _("the operator"),
                what + (" " + _("(undone)") if e.undone_by else ""),
                f"{e.kind} {e.label}",
                e.reason,
            )
        out.print(table)
        return 0
    try:
        with store.engine.begin() as conn:
            if args.action == "role":
                moderation.set_role(conn, user, args.role)
                said = (
                    _("{name} is a moderator: the desk is at /moderation.")
                    if args.role == "moderator"
                    else _("{name} is a player again.")
                ).format(name=user.name)
            elif args.action == "mute":
                verb = "unmute" if args.lift else "mute"
                moderation.act(conn, None, verb, "player", str(user.id), args.reason, args.hours)
                said = (_("{name} may write again.") if args.lift else _("{name} is muted.")).format(name=user.name)
            else:
                target = args.target.strip().strip("/").split("/")[-1]
                if args.kind == "club":
                    found = conn.execute(
                        select(clubs.CLUBS.c.id).where(clubs.CLUBS.c.slug == target, clubs.CLUBS.c.deleted.is_(False))
                    ).first()
                    target = str(found.id) if found is not None else ""
                moderation.act(conn, None, args.action, args.kind, target, args.reason)
                said = (
                    _("Removed: it is hidden everywhere until restored.") if args.action == "remove" else _("Restored.")
                )
    except WebError as e:
        err.print(_("barbu: error: {message}").format(message=word(e, current())), markup=False)
        return 2
    out.print(said, markup=False)
    return 0
