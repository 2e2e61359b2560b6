"""The refusals of the notifications: each defined once, with its code, its words and its kind."""

from __future__ import annotations

from ...core.words import N_
from ..common.errors import BAD, CONFLICT, LIMITED, MISSING, refusal

UNKNOWN_KIND = refusal("notice-kind", N_("unknown kind of notification '{kind}'; choose from: {kinds}"), BAD)
NO_SUCH_NOTICE = refusal("no-such-notice", N_("there is no such notification"), MISSING)
BAD_SUBSCRIPTION = refusal(
    "bad-push-subscription", N_("this browser's push subscription could not be read: {why}"), BAD
)
TOO_MANY_DEVICES = refusal(
    "too-many-devices", N_("notifications are on for {n} devices already; turn one off first"), LIMITED
)
NO_ADDRESS_FOR_MAIL = refusal(
    "notice-mail-no-address",
    N_("give your e-mail address (and confirm it) before choosing e-mails"),
    CONFLICT,
)
NO_MAIL_SERVER = refusal(
    "notice-no-mail", N_("this server sends no e-mails: choose the bell and your devices"), CONFLICT
)
NO_DEVICE = refusal("no-push-device", N_("notifications are not on for any of your devices"), CONFLICT)
NOTICE_ID = refusal("notice-id", N_('"id" is a notification\'s number, or null for all of them'), BAD)
SWITCH_FLAG = refusal("notice-switch-flag", N_('"push" and "mail" are true or false'), BAD)
TOO_MANY_TESTS = refusal(
    "too-many-push-tests", N_("you sent yourself {n} test notifications today; try again tomorrow"), LIMITED
)
