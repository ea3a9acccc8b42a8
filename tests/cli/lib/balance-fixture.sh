# The fixture of kifu-stats balance's tests (balance.sh, pg-balance.sh),
# built into the database $1 by the same commands on either backend (so the
# same games get the same ids): source it after test-lib.sh, then call
# balance_fixture DB. Mirror games of kifu-play at two levels of
# splay-schmidt and at random in splinter-quad (four sides), games mixing
# SPECs (left out), hand-written games of other players (level players,
# one without players, one naming a SPEC player against a person: left
# out, and two names that only look like SPECs), and stored reviews: most
# games reviewed once, one game twice with more playouts the second time,
# one twice with equal playouts (the last stored counts), one never.
balance_fixture() {
	bf_db=$1
	mkdir -p "$tmp/bf"
	cat >"$tmp/bf/hand.yaml" <<'YAML'
---
game: splay-schmidt
players: {white: Ann, black: Bob}
moves: [d4, f6, e5, c3]
result: white
termination: resignation
---
game: splay-schmidt
moves: [e5, f6, d4]
result: black
termination: resignation
---
game: splay-schmidt
players: {white: 'mcts: #1', black: 'random #1x'}
moves: [d4, f6]
result: draw
termination: agreement
---
game: splay-schmidt
players: {white: 'random #1', black: Ann}
moves: [d4, f6, e5]
result: white
termination: resignation
---
game: splay-schmidt
players: {white: 'engine #1', black: 'engine:5 #2'}
moves: [f6]
result: black
termination: resignation
---
game: splay-schmidt
players: {white: 'mcts:8 #1', black: 'mcts:08 #2'}
moves: [f6, d4]
result: white
termination: resignation
---
game: splay-schmidt
players: {white: 'random #3', black: 'random #2'}
moves: [e5, d4, f6]
result: unfinished
YAML
	"$bin/kifu-play" splay-schmidt --players random --games 3 --seed 1 --db "$bf_db" --quiet &&
	"$bin/kifu-play" splay-schmidt --players mcts:8 --games 3 --seed 2 --db "$bf_db" --quiet &&
	"$bin/kifu-play" splay-schmidt --players random,mcts:8 --games 2 --seed 3 --db "$bf_db" \
		--quiet &&
	"$bin/kifu-play" splinter-quad --players random --games 2 --seed 4 --db "$bf_db" --quiet &&
	"$bin/kifu-import" --db "$bf_db" --quiet "$tmp/bf/hand.yaml" &&
	# ids: 1-3 random, 4-6 mcts:8, 7-8 mixed, 9-10 quad, 11-17 by hand
	for id in 1 3 4 5 6 7 9 10 11 12 17; do
		"$bin/kifu-analyse" --db "$bf_db" --id "$id" --playouts 12 --threads 1 --store \
			--to json >/dev/null 2>&1 || return 1
	done &&
	"$bin/kifu-analyse" --db "$bf_db" --id 4 --playouts 20 --threads 1 --store \
		--to json >/dev/null 2>&1 &&
	"$bin/kifu-analyse" --db "$bf_db" --id 1 --playouts 5 --threads 1 --store \
		--to json >/dev/null 2>&1 &&
	"$bin/kifu-analyse" --db "$bf_db" --id 5 --playouts 12 --seed 9 --threads 1 --store \
		--to json >/dev/null 2>&1 &&
	"$bin/kifu-analyse" --db "$bf_db" --id 9 --playouts 12 --seed 5 --threads 1 --store \
		--to json >/dev/null 2>&1
}
