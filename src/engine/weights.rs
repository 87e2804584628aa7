// The evaluation's weights, written by `doushou tune` (the recipe is in docs/tuning.md).
// Data: 12556 self-play games, 1125619 quiet positions (112384 held out), from selfplay-d4.txt, selfplay-d6-first.txt, selfplay-d4-gen2.txt.
//   run: games=6000 positions=545535 red-won=1995 drawn=1896 blue-won=2109 depth=4 nodes=- random-plies=8 seed=2 max-plies=400
//   run: games=556 positions=48232 red-won=163 drawn=205 blue-won=188 depth=6 nodes=- random-plies=8 seed=1 max-plies=400 (stopped early: the first 556 of 4000 games)
//   run: games=6000 positions=531852 red-won=3084 drawn=1059 blue-won=1857 depth=4 nodes=- random-plies=8 seed=3 max-plies=400
// The first two runs were played by the hand-set table, the third by a first fit of it to
// them; this fit started from that first fit. See docs/tuning.md.
// Fit: K = 0.001027/cp, 1000 epochs, learning rate 2, l2 0.000000001; mean squared error 0.146653 -> 0.143543, validation 0.150191 -> 0.145577.
// Match: +218.6 +- 39.9 Elo against the hand-set table, 400 games at 1+0.01 (docs/tuning.md).
// Each line holds one group of `eval::feature`, in index order.
/// The weights the engine plays with.
pub const WEIGHTS: Weights = [
    // material: r1 r2 r3 r4 r5 r6 r7 r8
    64, 98, 160, 145, 116, 450, 1030, 1021,
    // advance.r1: d1 d2 d3 d4 d5 d6 d7 d8 d9 d10
    96, 96, 103, -29, -69, -51, 4, -16, -43, 111,
    // advance.r2: d1 d2 d3 d4 d5 d6 d7 d8 d9 d10
    67, 13, 63, -28, 45, -33, 127, -15, -33, -30,
    // advance.r3: d1 d2 d3 d4 d5 d6 d7 d8 d9 d10
    63, 22, 7, -6, 23, -121, -66, 45, -54, -21,
    // advance.r4: d1 d2 d3 d4 d5 d6 d7 d8 d9 d10
    61, 111, 104, 8, -134, -77, 25, 70, -148, -239,
    // advance.r5: d1 d2 d3 d4 d5 d6 d7 d8 d9 d10
    85, 176, 300, 179, 127, -2, -29, -112, -161, -81,
    // advance.r6: d1 d2 d3 d4 d5 d6 d7 d8 d9 d10
    112, 314, 291, 188, 143, 76, 162, 13, -76, -175,
    // advance.r7: d1 d2 d3 d4 d5 d6 d7 d8 d9 d10
    85, 244, 159, -15, -139, -100, -32, 32, -122, -141,
    // advance.r8: d1 d2 d3 d4 d5 d6 d7 d8 d9 d10
    91, 558, 281, -99, -48, 58, 71, -145, -102, -100,
    // rat_in_water
    -28,
    // rat_vs_elephant
    -1,
    // weakened_on_trap
    -40,
    // den_pressure: x1 x2 x3
    -108, -85, -150,
    // trap_guards
    72,
    // traps_covered
    34,
    // runner: d2 d3 d4
    312, 150, 60,
    // threat_to_move: r1 r2 r3 r4 r5 r6 r7 r8
    133, 83, 100, 116, 150, 266, 300, 333,
    // threat_waiting: r1 r2 r3 r4 r5 r6 r7 r8
    -50, -112, -138, -68, -65, -179, -337, -171,
    // mobility
    13,
    // jump_lanes
    -117,
    // river_block
    113,
    // tempo
    48,
];
