"""What the server remembers of players: results, ratings, profiles, leaderboards."""
