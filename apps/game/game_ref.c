/* game's CPU negamax (game_ref.h): the rules of game.cl, in C. */
#include "game_ref.h"

/* game.cl's GAME_WIN (a lost position scores -(GAME_WIN + the plies left)) and GAME_STONES (a
 * full board). */
enum { GAME_REF_WIN = 1000, GAME_REF_STONES = 42 };

static int game_playable(game_board b, unsigned column)
{
    return !(b.mask & (UINT64_C(1) << (7 * column + 5)));
}

game_board game_play(game_board b, unsigned column)
{
    return (game_board){.mask = b.mask | (b.mask + (UINT64_C(1) << (7 * column))), .cur = b.cur ^ b.mask};
}

static int game_aligned(uint64_t stones)
{
    static const unsigned shifts[4] = {1, 6, 7, 8};
    for (unsigned s = 0; s < 4; s++) {
        uint64_t pairs = stones & (stones >> shifts[s]);
        if (pairs & (pairs >> (2 * shifts[s])))
            return 1;
    }
    return 0;
}

static int game_evaluate(game_board b)
{
    static const int weight[7] = {1, 2, 3, 4, 3, 2, 1};
    int score = 0;
    for (unsigned c = 0; c < 7; c++) {
        uint64_t column = UINT64_C(0x3f) << (7 * c);
        score += weight[c] * (__builtin_popcountll(b.cur & column) - __builtin_popcountll((b.cur ^ b.mask) & column));
    }
    return score;
}

int game_negamax(game_board b, unsigned depth, unsigned long *nodes)
{
    ++*nodes;
    if (game_aligned(b.cur ^ b.mask))
        return -(GAME_REF_WIN + (int)depth);
    if (__builtin_popcountll(b.mask) == GAME_REF_STONES)
        return 0;
    if (depth == 0)
        return game_evaluate(b);
    int best = INT32_MIN;
    for (unsigned c = 0; c < 7; c++)
        if (game_playable(b, c)) {
            int value = -game_negamax(game_play(b, c), depth - 1, nodes);
            best = value > best ? value : best;
        }
    return best;
}
