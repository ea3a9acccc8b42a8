/*
 * The game interface. Every rules engine is one `const struct kifu_game`
 * filled with designated initializers and listed in the NULL-terminated
 * registry kifu_games[]. Generic code (validator, store, statistics, export,
 * players, tests) talks to games only through this table.
 *
 * A position ("state") is a plain fixed-size block of memory of
 * game->state_size bytes, aligned for any type: copying it with memcpy() is
 * a complete clone, which is how callers undo a move (copy-make). States hold
 * no pointers. The position hash is kept up to date incrementally by apply().
 */
#ifndef KIFU_GAME_H
#define KIFU_GAME_H

#include <stddef.h>
#include <stdint.h>

#include "kifu/buf.h"
#include "kifu/error.h"

/*
 * A move is a small value whose encoding belongs to its game. Every move a
 * game lists or parses is canonical: two spellings of the same move give
 * the same value, so values can be compared with ==.
 */
typedef uint64_t kifu_move;

/* Longest canonical move text, NUL included. */
#define KIFU_MOVE_TEXT_MAX 96

enum kifu_status {
	KIFU_ONGOING = 0, /* the rules have not ended the game */
	KIFU_WIN = 1,     /* outcome.winner won */
	KIFU_DRAW = 2     /* the rules ended it in a draw */
};

struct kifu_outcome {
	int status; /* enum kifu_status */
	int winner; /* side index when status == KIFU_WIN, else -1 */
};

/* A figure that reports should give (final score, captures, pieces left...). */
enum kifu_figure_type { KIFU_FIG_INT = 0, KIFU_FIG_TEXT = 1 };

struct kifu_figure {
	char key[32];   /* snake_case name: "score", "captures_white" */
	int type;       /* enum kifu_figure_type */
	long num;       /* the value when KIFU_FIG_INT */
	char text[64];  /* the value when KIFU_FIG_TEXT ("blue,green") */
};

#define KIFU_FIGURES_MAX 8

/* The game allows a record to name the side that moves first (`first:`). */
#define KIFU_GAME_CHOOSE_FIRST 0x1

struct kifu_game {
	const char *name;              /* record id: "splay-schmidt" */
	const char *title;             /* human name: "Splay (Schmidt)" */
	const char *const *variants;   /* NULL-terminated; [0] is the default */
	const char *const *sides;      /* NULL-terminated, in turn order */
	int nsides;
	unsigned flags;                /* KIFU_GAME_* */
	size_t state_size;             /* bytes of one position */
	size_t max_moves;              /* upper bound of legal_moves() in any position */

	/*
	 * Sets up the start position of variant (an index into variants) with
	 * side `first` (an index into sides) to move. The state memory need not
	 * be initialised. Returns 0, or KIFU_ENOTFOUND for a variant or side
	 * out of range or a first side the game does not allow.
	 */
	int (*init)(void *state, int variant, int first, struct kifu_error *err);

	/* The side to move (an index into sides). */
	int (*side_to_move)(const void *state);

	/*
	 * Writes every legal move, each once, into moves (room for max_moves)
	 * and returns their count. A position where the game is over has none;
	 * `pass` is listed exactly when the rules require it.
	 */
	size_t (*legal_moves)(const void *state, kifu_move *moves);

	/*
	 * Optional (may be NULL): the number legal_moves() would return,
	 * computed faster where the game can (perft counts leaves with it).
	 */
	size_t (*count_moves)(const void *state);

	/* Plays move m, which must be one legal_moves() lists. */
	void (*apply)(void *state, kifu_move m);

	/*
	 * Parses one move as written (surrounding white space ignored, upper
	 * case accepted, every spelling the spec accepts) and checks that it is
	 * legal here. On success *out is the canonical move. On failure returns
	 * KIFU_EPARSE with "unparsable move 'TEXT': WHY" or KIFU_EILLEGAL with
	 * "illegal move 'TEXT': WHY", TEXT being the move as written (trimmed).
	 */
	int (*parse_move)(const void *state, const char *text, kifu_move *out,
			  struct kifu_error *err);

	/* Writes m in canonical notation into buf (KIFU_MOVE_TEXT_MAX bytes). */
	void (*format_move)(const void *state, kifu_move m, char *buf);

	/* Whether the rules have ended the game, and how. */
	void (*outcome)(const void *state, struct kifu_outcome *out);

	/* The incrementally maintained 64-bit position hash. */
	uint64_t (*hash)(const void *state);

	/* The same hash computed from scratch (tests compare the two). */
	uint64_t (*rehash)(const void *state);

	/* Fills up to KIFU_FIGURES_MAX figures the game's page asks reports to give; returns the count. */
	int (*figures)(const void *state, struct kifu_figure *out);

	/*
	 * render_svg with the last move marked, as chess and Go viewers do:
	 * `last` is the move played to reach state, and the board cells it
	 * touched (where a piece left and where pieces landed, or the cell
	 * played on) are highlighted in one <g class="last-move"> group, a
	 * shape with data-last="NAME" per cell, drawn over the board and under
	 * the pieces; the rest of the picture is render_svg's. A pass marks
	 * nothing. Returns 0 or KIFU_ENOMEM.
	 */
	int (*render_svg_last)(struct kifu_buf *out, const void *state, kifu_move last);

	/* Appends a text diagram of the position (coordinates, owners, heights). */
	int (*render_text)(struct kifu_buf *out, const void *state);

	/*
	 * Appends a picture of the position: one complete standalone <svg>
	 * element (with xmlns and viewBox), the side to move and the figures
	 * written below the board. Every element that shows a cell's content
	 * carries data-cell="NAME" and data-content="CODE", CODE being the
	 * cell's token in render_text, so that the picture can be checked
	 * against the engine. Returns 0 or KIFU_ENOMEM.
	 */
	int (*render_svg)(struct kifu_buf *out, const void *state);

	/*
	 * Board symmetries: exactly those the game's page lists under
	 * "Symmetries". Symmetry k (0 <= k < nsymmetries) maps the board onto
	 * itself so that the rules are unchanged; 0 is the identity. The side
	 * to move and every rule state the hash covers besides the board are
	 * kept, cells (and directions) are mapped.
	 */
	int nsymmetries;

	/* The symmetry that undoes k: mapping by k then by it is the identity. */
	int (*symmetry_inverse)(int k);

	/*
	 * Writes into dst (state_size bytes, not overlapping src) the position
	 * src with its board mapped by symmetry k: a complete position, whose
	 * incremental hash is the engine's own hash of the mapped board.
	 */
	void (*map_state)(void *dst, const void *src, int k);

	/*
	 * Move m, legal in state, as it is played in the position
	 * map_state(state, k): every cell and direction it names mapped, and
	 * written canonically again (a /CELL choice names the mapped group's
	 * canonical cell), so the result is one of that position's legal moves.
	 */
	kifu_move (*map_move)(const void *state, kifu_move m, int k);

	/*
	 * Optional (may be NULL): out[k] = hash(map_state(state, k)) for every
	 * symmetry k (out has room for nsymmetries), computed in one pass over
	 * the board without building the mapped positions. The canonical hash
	 * of every stored ply uses it, so import pays for it on each move.
	 */
	void (*hash_symmetries)(uint64_t *out, const void *state);

	/*
	 * Optional (may be NULL until a game has one): the evaluation, the
	 * expected score of every side from state as the game's own features
	 * predict it: out[0..nsides) each in [0, 1], summing to 1 (a draw's
	 * share split among the sides), equal for state and each of its
	 * symmetry images. Only called on positions the rules have not ended
	 * (kifu_game_evaluate scores ended ones by their result). Searches cut
	 * their playouts with it.
	 */
	void (*evaluate)(const void *state, double *out);

	/*
	 * Optional (partial-board pattern search needs them): the cells of the
	 * board, numbered 0 .. ncells(state) - 1 in one order for every
	 * position of a variant. cell_name writes cell i's name as the
	 * notation writes it (KIFU_CELL_NAME_MAX bytes). cell_token writes what
	 * render_text shows in cell i (KIFU_CELL_TOKEN_MAX bytes, "." when
	 * empty) and returns the side whose piece stands there (for a stack, the
	 * side that moves it), -1 when empty. token_side says whether text is a
	 * token render_text can show in a position of state's variant, other
	 * than ".": the side it belongs to, or -1 when it is none. tokens_help
	 * names the tokens for messages ("w1, w2, ... (white tower), W ...").
	 * map_cell gives the cell onto which symmetry k maps cell (what stands
	 * on cell in state stands on map_cell(state, cell, k) in
	 * map_state(state, k)). side_cells (may be NULL: pattern search then
	 * asks cell_token) writes, for every side s, the cells holding its
	 * pieces as bits: cell c is bit c % 64 of out[s * KIFU_CELL_WORDS +
	 * c / 64]; it runs at every ply of an import, so it should be cheap.
	 */
	int (*ncells)(const void *state);
	void (*cell_name)(const void *state, int cell, char *buf);
	int (*cell_token)(const void *state, int cell, char *buf);
	int (*token_side)(const void *state, const char *text);
	const char *(*tokens_help)(const void *state);
	int (*map_cell)(const void *state, int cell, int k);
	void (*side_cells)(const void *state, uint64_t *out);
};

/* Longest cell name and cell token (see kifu_game.cell_token), NUL included. */
#define KIFU_CELL_NAME_MAX 8
#define KIFU_CELL_TOKEN_MAX 24

/* Most cells a board may have for pattern search, and its words of bits. */
#define KIFU_CELLS_MAX 128
#define KIFU_CELL_WORDS 2

/* The most sides a game may have (splinter-quad's 4; reports and patterns size arrays by it). */
#define KIFU_GAME_SIDES_MAX 4

/* The most symmetries a game may declare (the hex-hex board's 12). */
#define KIFU_GAME_SYMMETRIES_MAX 12

/* The registry: every game, NULL-terminated, in a fixed order. */
extern const struct kifu_game *const kifu_games[];

/* Looks a game up by record id; NULL when unknown. */
const struct kifu_game *kifu_game_find(const char *name);

/* Index of a variant or side by name, or -1 (names are case-sensitive). */
int kifu_game_variant_index(const struct kifu_game *g, const char *name);
int kifu_game_side_index(const struct kifu_game *g, const char *name);

/* Number of variants. */
int kifu_game_variant_count(const struct kifu_game *g);

/*
 * A figure's key in words, for people (pictures' captions, pages): a key
 * ending in one of g's sides names the side first ("captures_white" is
 * "white captures"), and underscores are spaces ("score" stays). The key
 * itself stays the name in json and csv. Truncated to fit n bytes.
 */
void kifu_game_figure_label(char *out, size_t n, const struct kifu_game *g, const char *key);

/*
 * The picture of state: render_svg_last with *last marked when last is
 * given (the move played to reach state), else render_svg.
 */
int kifu_game_render_svg(struct kifu_buf *out, const struct kifu_game *g, const void *state,
			 const kifu_move *last);

/*
 * The evaluation of state (see kifu_game.evaluate), out[0..nsides): an
 * ended position is scored by its result (1 to the winner, a draw shared
 * equally), an ongoing one by g->evaluate, or 1/nsides each when the game
 * has none.
 */
void kifu_game_evaluate(const struct kifu_game *g, const void *state, double *out);

/*
 * A position with its game, for callers that want one allocation: the state
 * memory follows the header and is aligned for any type.
 */
struct kifu_pos {
	const struct kifu_game *game;
	int variant;
	int first;
	void *state;
};

/* Creates the start position; *out belongs to the caller (kifu_pos_free). */
int kifu_pos_new(struct kifu_pos **out, const struct kifu_game *g, int variant,
		 int first, struct kifu_error *err);
void kifu_pos_free(struct kifu_pos *pos);

/* Copies src's state into dst (same game). */
void kifu_pos_copy(struct kifu_pos *dst, const struct kifu_pos *src);

/*
 * Parses a comma-separated move list (spaces inside a move are part of it)
 * and plays it from pos. On failure err says which move (1-based ply) and
 * why, and pos holds the position before the failing move.
 */
int kifu_pos_play_list(struct kifu_pos *pos, const char *list, struct kifu_error *err);

/*
 * The canonical position hash: the smallest hash of state over the game's
 * symmetries (equal for every position one of them maps onto another).
 * *sym (may be NULL) gets the smallest k whose map_state(state, k) has that
 * hash. Returns 0 or KIFU_ENOMEM.
 */
int kifu_game_canonical_hash(uint64_t *out, int *sym, const struct kifu_game *g,
			     const void *state);

/*
 * Perft: *out = the number of legal move sequences of length depth from
 * state. Leaf moves are counted without being played. Returns 0 or
 * KIFU_ENOMEM.
 */
int kifu_perft(uint64_t *out, const struct kifu_game *g, const void *state, int depth);

#endif
