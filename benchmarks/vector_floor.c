/* The memory floor of a vector env step (benchmarks/bench_rl.py --learning compiles and runs it).

   A step of shashki.rl.VectorEnv must, whatever its code, write for each env the arrays its API
   hands back: the observation cells of the pieces that moved (the rows two plies behind, in the
   array of the step), the mask entries of the last position cleared and those of the new one
   set, the new legal actions in the env's legal_actions row, the reward, terminated, truncated,
   termination, turn and ply entries, and the env's own state.  This program does only that, with
   the arrays of a russian VectorEnv of 1,024 envs (10 planes of 8 x 8 floats, 1,535 actions, rows
   of 512 legal actions, 256 bytes of state an env) and the ply's changes drawn at random: no move
   is generated, no rule applied.  Its plies per CPU-second bound what any vector env of this API
   can reach here, beside shashki.playouts measured in the same run.

   usage: vector_floor SECONDS  ->  prints "plies cpu_seconds" */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { ENVS = 1024, PLANES = 10, CELLS = 64, ACTIONS = 1535, MAX_LEGAL = 512, AHEAD = 4 };

typedef struct { uint64_t word[32]; } State;      /* an env's state: 256 bytes */

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static inline uint64_t next(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    double seconds = argc > 1 ? atof(argv[1]) : 1.0;
    float *obs[2];
    uint8_t *mask = calloc((size_t)ENVS * ACTIONS, 1);
    int32_t *legal = calloc((size_t)ENVS * MAX_LEGAL, sizeof(int32_t));
    int32_t *counts = calloc(ENVS, sizeof(int32_t)), *plies = calloc(ENVS, sizeof(int32_t));
    float *rewards = calloc(ENVS, sizeof(float));
    uint8_t *flags = calloc((size_t)ENVS * 4, 1);  /* terminated, truncated, termination, turn */
    State *state = calloc(ENVS, sizeof(State));
    uint64_t steps = 0;
    double start, used;
    obs[0] = calloc((size_t)ENVS * PLANES * CELLS, sizeof(float));
    obs[1] = calloc((size_t)ENVS * PLANES * CELLS, sizeof(float));
    if (!mask || !legal || !counts || !plies || !rewards || !flags || !state || !obs[0] || !obs[1])
        return 1;
    start = cpu_seconds();
    do {
        float *page = obs[steps & 1];
        for (int i = 0; i < ENVS; i++) {
            if (i + AHEAD < ENVS) {
                /* what the env AHEAD places on will touch, asked for in advance */
                const char *s = (const char *)&state[i + AHEAD];
                const char *row = (const char *)(page + (size_t)(i + AHEAD) * PLANES * CELLS);
                for (int k = 0; k < (int)sizeof(State); k += 64) __builtin_prefetch(s + k);
                for (int k = 0; k < 4 * CELLS * (int)sizeof(float); k += 64)
                    __builtin_prefetch(row + k);
                __builtin_prefetch(legal + (size_t)(i + AHEAD) * MAX_LEGAL);
            }
            uint64_t r = next();
            State *e = &state[i];
            float *row = page + (size_t)i * PLANES * CELLS;
            uint8_t *m = mask + (size_t)i * ACTIONS;
            int32_t *l = legal + (size_t)i * MAX_LEGAL;
            int n = 6 + (int)((r >> 28) & 7), first = (int)((r >> 40) % (ACTIONS - 12 * 40));
            /* the state: the position, the draw counters, the history entry */
            e->word[0] ^= r;
            e->word[5] += r >> 3;
            e->word[9] = r;
            e->word[20]++;
            /* two plies of the row: a piece leaves a cell and lands on another, twice */
            for (int k = 0; k < 4; k++) row[(k & 3) * CELLS + ((r >> (6 * k)) & 63)] = (float)(k & 1);
            /* the mask and the legal row: the old actions cleared, n new ones (a few origins,
               their destinations near) set */
            for (int k = 0; k < counts[i]; k++) m[l[k]] = 0;
            for (int k = 0; k < n; k++) {
                l[k] = first + 40 * k + (int)((r >> k) & 1);
                m[l[k]] = 1;
            }
            for (int k = n; k < counts[i]; k++) l[k] = -1;
            counts[i] = n;
            rewards[i] = 0.0f;
            flags[4 * i] = flags[4 * i + 1] = flags[4 * i + 2] = 0;
            flags[4 * i + 3] ^= 1;
            plies[i]++;
        }
        steps++;
        used = cpu_seconds() - start;
    } while (used < seconds);
    printf("%llu %.6f\n", (unsigned long long)(steps * ENVS), used);
    return legal[7] == 12345;     /* (the arrays are used: the compiler keeps the stores) */
}
