-- kifu schema 2: views that make the common questions one SELECT away.

-- Who played each side of each game.
CREATE VIEW game_players AS
SELECT s.game_id, s.side_index, s.side, p.name AS player, s.rating
FROM sides s JOIN players p ON p.id = s.player_id;

-- One line per game: players in turn order, the winner's name.
CREATE VIEW game_list AS
SELECT g.id, g.game, g.variant, g.date, g.event, g.site, g.round,
	(SELECT group_concat(name, ' - ')
	 FROM (SELECT p.name AS name FROM sides s JOIN players p ON p.id = s.player_id
	       WHERE s.game_id = g.id ORDER BY s.side_index)) AS players,
	g.result, g.termination,
	(SELECT p.name FROM sides s JOIN players p ON p.id = s.player_id
	 WHERE s.game_id = g.id AND s.side_index = g.winner) AS winner_name,
	g.plies
FROM games g;

-- Games per game and variant and result.
CREATE VIEW results AS
SELECT game, variant, result, count(*) AS games
FROM games GROUP BY game, variant, result;

-- Per game and variant: games, decided, drawn and unfinished, mean length.
CREATE VIEW game_summary AS
SELECT game, variant, count(*) AS games,
	sum(winner IS NOT NULL) AS decided,
	sum(result = 'draw') AS draws,
	sum(result = 'unfinished') AS unfinished,
	round(avg(plies), 1) AS mean_plies
FROM games GROUP BY game, variant;

-- Per player: games, wins, draws, losses (unfinished games apart).
CREATE VIEW player_results AS
SELECT p.name AS player, count(*) AS games,
	sum(g.winner = s.side_index) AS wins,
	sum(g.result = 'draw') AS draws,
	sum(g.winner IS NOT NULL AND g.winner <> s.side_index) AS losses,
	sum(g.result = 'unfinished') AS unfinished
FROM sides s JOIN players p ON p.id = s.player_id JOIN games g ON g.id = s.game_id
GROUP BY p.id;

-- Position hashes as the tools print them: 16 lower-case hex digits.
CREATE VIEW positions_hex AS
SELECT game_id, ply, printf('%016x', hash) AS hash
FROM positions;

-- One line per quarantined record, with its first error.
CREATE VIEW quarantine_list AS
SELECT q.id, q.file, q.file_line, q.file_game, q.game, q.errors,
	(SELECT d.message FROM quarantine_diags d
	 WHERE d.quarantine_id = q.id AND d.severity = 'error' ORDER BY d.seq LIMIT 1) AS first_error
FROM quarantine q;
