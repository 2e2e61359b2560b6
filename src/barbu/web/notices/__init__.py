"""Notifications (issue 45): what an account is told (its turn, a challenge, an event about to start, a club's
invitation, a moderator's word), stored for the bell and the /notifications page, pushed live to its open
pages, sent by Web Push to its devices, and by e-mail where the player chose it and confirmed his address."""
