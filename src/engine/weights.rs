// The evaluation's weights, written by `doushou tune` (hand-set until the first tuning run).
// Each line holds one group of `eval::feature`, in index order.
/// The weights the engine plays with.
pub const WEIGHTS: Weights = [
    // material: r1 r2 r3 r4 r5 r6 r7 r8
    400, 250, 300, 350, 450, 800, 900, 1000,
    // advance.r1: d1 d2 d3 d4 d5 d6 d7 d8 d9 d10
    100, 69, 48, 42, 36, 30, 24, 18, 12, 6,
    // advance.r2: d1 d2 d3 d4 d5 d6 d7 d8 d9 d10
    70, 42, 24, 21, 18, 15, 12, 9, 6, 3,
    // advance.r3: d1 d2 d3 d4 d5 d6 d7 d8 d9 d10
    70, 42, 24, 21, 18, 15, 12, 9, 6, 3,
    // advance.r4: d1 d2 d3 d4 d5 d6 d7 d8 d9 d10
    80, 51, 32, 28, 24, 20, 16, 12, 8, 4,
    // advance.r5: d1 d2 d3 d4 d5 d6 d7 d8 d9 d10
    90, 60, 40, 35, 30, 25, 20, 15, 10, 5,
    // advance.r6: d1 d2 d3 d4 d5 d6 d7 d8 d9 d10
    120, 87, 64, 56, 48, 40, 32, 24, 16, 8,
    // advance.r7: d1 d2 d3 d4 d5 d6 d7 d8 d9 d10
    120, 87, 64, 56, 48, 40, 32, 24, 16, 8,
    // advance.r8: d1 d2 d3 d4 d5 d6 d7 d8 d9 d10
    100, 69, 48, 42, 36, 30, 24, 18, 12, 6,
    // rat_in_water
    20,
    // rat_vs_elephant
    50,
    // weakened_on_trap
    -40,
    // den_pressure: x1 x2 x3
    -30, -80, -150,
    // trap_guards
    10,
    // traps_covered
    10,
    // runner: d2 d3 d4
    300, 150, 60,
    // threat_to_move: r1 r2 r3 r4 r5 r6 r7 r8
    133, 83, 100, 116, 150, 266, 300, 333,
    // threat_waiting: r1 r2 r3 r4 r5 r6 r7 r8
    -40, -25, -30, -35, -45, -80, -90, -100,
    // mobility
    3,
    // jump_lanes
    15,
    // river_block
    20,
    // tempo
    10,
];
