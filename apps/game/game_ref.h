/* game_ref.h: game's CPU reference, the same connect-four negamax as game.cl, which coop-ws
 * checks the device's value and node count against. Boards are bitboards as game.cl has them:
 * bit 7 * column + row (rows 0..5 from the bottom, row 6 a sentinel), `mask` the stones on the
 * board, `cur` those of the player to move. */
#ifndef APPS_GAME_GAME_REF_H
#define APPS_GAME_GAME_REF_H

#include <stdint.h>

typedef struct game_board {
    uint64_t mask, cur;
} game_board;

/* `b` after the player to move drops a stone in `column` (0-based; the caller checks it has room). */
game_board game_play(game_board b, unsigned column);

/* game.cl's value of `b` searched `depth` plies; *nodes counts the positions visited. */
int game_negamax(game_board b, unsigned depth, unsigned long *nodes);

#endif
