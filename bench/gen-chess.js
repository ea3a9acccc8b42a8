// Random legal chess games for the SCID side of bench/import.sh, with the
// npm package chess.js: from the start, a move drawn uniformly from the
// legal ones until the game ends (mate, stalemate, the fifty-move rule,
// threefold repetition, insufficient material) or 150 plies. Written as PGN.
// chess.js's public moves()/move() make SAN strings for every legal move
// and parse one back; its internal _moves/_moveToSan/_makeMove (stable
// across 1.x) make only the SAN of the move played: a few times faster.
// SHARD k (1, 2, ...) draws other games (seed) numbered from (k - 1) * N + 1,
// so that shards made in parallel concatenate into one file of distinct games.
// Usage: node bench/gen-chess.js FILE N CHESSJS_DIR [SHARD]   (prints the plies)
'use strict';
const path = require('path');
const fs = require('fs');
const { Chess } = require(path.resolve(process.argv[4], 'node_modules', 'chess.js'));

const n = parseInt(process.argv[3], 10);
const shard = parseInt(process.argv[5] || '1', 10);
let seed = (0x2545f491 + (shard - 1) * 0x9e3779b9) >>> 0;
function below(k) { // xorshift32, a fixed seed: the same games every run
	seed ^= seed << 13; seed >>>= 0;
	seed ^= seed >>> 17;
	seed ^= seed << 5; seed >>>= 0;
	return seed % k;
}
const out = fs.openSync(process.argv[2], 'w');
let plies = 0, buf = [];
for (let g = 0; g < n; g++) {
	const c = new Chess();
	const san = [];
	let result = '*';
	for (;;) {
		const ms = c._moves({ legal: true });
		if (ms.length === 0) {
			result = c.isCheck() ? (c.turn() === 'w' ? '0-1' : '1-0') : '1/2-1/2';
			break;
		}
		if (c.isDrawByFiftyMoves() || c.isInsufficientMaterial() || c.isThreefoldRepetition()) {
			result = '1/2-1/2';
			break;
		}
		if (san.length >= 150)
			break;
		const m = ms[below(ms.length)];
		san.push(c._moveToSan(m, ms));
		c._makeMove(m);
	}
	plies += san.length;
	let text = '[Event "random"]\n[Site "bench"]\n[Date "2024.01.01"]\n[Round "' + ((shard - 1) * n + g + 1) +
		'"]\n[White "W' + (g % 5000) + '"]\n[Black "B' + (g % 4999) + '"]\n[Result "' + result +
		'"]\n\n';
	for (let i = 0; i < san.length; i++)
		text += (i % 2 === 0 ? (i / 2 + 1) + '. ' : '') + san[i] + ' ';
	buf.push(text + result + '\n\n');
	if (buf.length >= 1000) {
		fs.writeSync(out, buf.join(''));
		buf = [];
	}
}
fs.writeSync(out, buf.join(''));
fs.closeSync(out);
console.log(plies);
