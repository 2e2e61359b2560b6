"""The account channel (issue 45): one WebSocket per open page of a logged-in account, and the hub that sends
to all of an account's pages on any process."""
