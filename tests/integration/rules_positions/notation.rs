//! Notation.

use super::*;

fn fen_err(text: &str) -> FenError {
    match std::panic::catch_unwind(|| text.parse::<Position>()) {
        Ok(Ok(p)) => panic!("{text:?} parsed as {p:?}"),
        Ok(Err(e)) => {
            // The message is there to be shown to a user.
            assert!(!e.to_string().is_empty());
            e
        }
        Err(_) => panic!("{text:?}: the parser panicked"),
    }
}

#[test]
fn every_fen_error_is_reported() {
    const B: &str = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L";
    assert_eq!(fen_err(""), FenError::Empty);
    assert_eq!(fen_err("   "), FenError::Empty);
    assert_eq!(fen_err("7/7/7 w"), FenError::RankCount { found: 3 });
    assert_eq!(
        fen_err("7/7/7/7/7/7/7/7/7/7 w"),
        FenError::RankCount { found: 10 }
    );
    assert_eq!(
        fen_err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T4L w"),
        FenError::RankWidth { rank: 1, width: 6 }
    );
    assert_eq!(
        fen_err("l6t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w"),
        FenError::RankWidth { rank: 9, width: 8 }
    );
    assert_eq!(
        fen_err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/ w"),
        FenError::RankWidth { rank: 1, width: 0 }
    );
    assert!(matches!(
        fen_err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L7 w"),
        FenError::RankWidth { rank: 1, .. }
    ));
    assert_eq!(
        fen_err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5x w"),
        FenError::UnknownChar { rank: 1, ch: 'x' }
    );
    assert_eq!(
        fen_err("l5t/1d3c1/r1p1w1e/8/7/7/E1W1P1R/1C3D1/T5L w"),
        FenError::UnknownChar { rank: 6, ch: '8' }
    );
    assert_eq!(
        fen_err("l5t/1d3c1/r1p1w1e/07/7/7/E1W1P1R/1C3D1/T5L w"),
        FenError::UnknownChar { rank: 6, ch: '0' }
    );
    assert_eq!(
        fen_err("L5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w"),
        FenError::DuplicateAnimal {
            letter: 'L',
            square: sq("g1")
        }
    );
    assert_eq!(
        fen_err("l5t/1d3c1/r1p1w1e/7/l6/7/E1W1P1R/1C3D1/T5L w"),
        FenError::DuplicateAnimal {
            letter: 'l',
            square: sq("a5")
        }
    );
    assert_eq!(
        fen_err("l5t/1d3c1/r1p1w1e/7/1L5/7/E1W1P1R/1C3D1/T6 w"),
        FenError::NotRatInWater {
            letter: 'L',
            square: sq("b5")
        }
    );
    assert_eq!(
        fen_err("6t/1d3c1/r1p1w1e/7/7/5l1/E1W1P1R/1C3D1/T5L w"),
        FenError::NotRatInWater {
            letter: 'l',
            square: sq("f4")
        }
    );
    // ... while rats in water are fine.
    assert!(
        "6t/1d3c1/2p1w1e/7/7/1r3R1/E1W1P2/1C3D1/T5L w"
            .parse::<Position>()
            .is_ok()
    );
    assert_eq!(
        fen_err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T2L3 w"),
        FenError::PieceInOwnDen {
            letter: 'L',
            square: sq("d1")
        }
    );
    assert_eq!(
        fen_err("3l2t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w"),
        FenError::PieceInOwnDen {
            letter: 'l',
            square: sq("d9")
        }
    );
    assert_eq!(
        fen_err("3C3/7/7/7/7/7/7/7/3c3 w"),
        FenError::BothDensEntered
    );
    assert_eq!(fen_err(B), FenError::MissingSide);
    assert_eq!(fen_err(&format!("{B} x")), FenError::BadSide("x".into()));
    assert_eq!(
        fen_err(&format!("{B} red")),
        FenError::BadSide("red".into())
    );
    for (tail, field) in [
        ("w -1 1", "plies since capture"),
        ("w abc 1", "plies since capture"),
        ("w 1.5 1", "plies since capture"),
        ("w 4294967296 1", "plies since capture"),
        ("w 0 0", "move number"),
        ("w 0 x", "move number"),
        ("w 0 -3", "move number"),
    ] {
        match fen_err(&format!("{B} {tail}")) {
            FenError::BadCounter { field: f, .. } => assert_eq!(f, field, "{tail}"),
            other => panic!("{tail}: {other:?}"),
        }
    }
    assert_eq!(
        fen_err(&format!("{B} w 0 1 extra")),
        FenError::ExtraField("extra".into())
    );
}

#[test]
fn malformed_texts_never_panic() {
    // Mangle the start position character by character in a fixed pseudo-random way.
    let base: Vec<char> = START_FEN.chars().collect();
    let alphabet: Vec<char> = "elptwdcrELPTWDCR0123456789/ -wbrx\u{e9}".chars().collect();
    let mut state = 0x1234_5678_9abc_def0_u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..5000 {
        let mut s = base.clone();
        for _ in 0..1 + next() % 4 {
            let i = (next() % s.len() as u64) as usize;
            let c = alphabet[(next() % alphabet.len() as u64) as usize];
            match next() % 3 {
                0 => s[i] = c,
                1 => s.insert(i, c),
                _ => {
                    s.remove(i);
                }
            }
            if s.is_empty() {
                s.push('7');
            }
        }
        let text: String = s.into_iter().collect();
        let result = std::panic::catch_unwind(|| text.parse::<Position>());
        match result {
            Err(_) => panic!("{text:?}: the parser panicked"),
            Ok(Ok(p)) => {
                // Whatever parses prints back to the same position.
                assert_eq!(pos(&p.fen()), p, "{text:?}");
            }
            Ok(Err(_)) => {}
        }
    }
}

#[test]
fn side_letters_and_optional_counters() {
    let w = pos("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w");
    let r = pos("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r");
    assert_eq!(w, r);
    assert_eq!(w.side_to_move(), Side::Red);
    assert_eq!(w.plies_since_capture(), 0);
    assert_eq!(w.move_number(), 1);
    assert_eq!(w, Position::startpos());
    assert_eq!(w.fen(), START_FEN);
    let b = pos("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 7");
    assert_eq!(b.side_to_move(), Side::Blue);
    assert_eq!(b.plies_since_capture(), 7);
    assert_eq!(b.move_number(), 1);
    assert_ne!(b.key(), w.key(), "the side to move is part of the key");
    let c = pos("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 12 40");
    assert_eq!(c.key(), w.key(), "the counters are not part of the key");
    assert_ne!(c, w);
    // Pieces land where the notation says.
    assert_eq!(w.piece_at(sq("a1")), Some(Piece::from_letter('T').unwrap()));
    assert_eq!(w.piece_at(sq("a9")).map(|p| p.letter()), Some('l'));
    assert_eq!(w.piece_at(sq("g7")).map(|p| p.letter()), Some('e'));
    assert_eq!(w.piece_at(sq("d5")), None);
}

#[test]
fn fen_round_trips() {
    let mut fens: Vec<String> = vec![START_FEN.to_string()];
    fens.extend(common::perft_suite_fens());
    fens.extend(
        [
            "6c/7/7/7/2R4/7/7/7/7 w",
            "l2C3/7/7/7/7/7/7/7/6L b",
            "7/7/7/7/7/7/7/7/L2c3 w 3 9",
            "7/7/7/7/7/7/7/7/7 b 0 1",
            "7/7/7/5r1/7/7/7/7/C6 b 4294967295 4294967295",
        ]
        .map(String::from),
    );
    assert!(fens.len() > 60);
    for fen in &fens {
        let p = pos(fen);
        let printed = p.fen();
        let q = pos(&printed);
        assert_eq!(p, q, "{fen} -> {printed}");
        assert_eq!(p.key(), q.key(), "{fen}");
        assert_eq!(p.key(), p.compute_key(), "{fen}");
        assert_eq!(q.fen(), printed, "{fen}");
        // A FEN that already has both counters prints back exactly.
        if fen.split_whitespace().count() == 4 {
            assert_eq!(&printed, fen);
        }
    }
}
