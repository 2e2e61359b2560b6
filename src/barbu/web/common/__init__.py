"""What every part of the web server shares: settings, refusals, wording, page languages, mail."""
