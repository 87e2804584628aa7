//! A review of the game line asked from the page: started in the
//! background ([`super::review_job`]), its reports kept on the state.
use super::review_job::{self as review, Review, ReviewEvent, ReviewJob};
use super::{GuiGame, lock, sse};
use crate::gui::api::{ReviewView, State};
use crate::gui::error::ApiError;

impl GuiGame {
    /// Reviews the game line at `depth` in the background (or cancels the
    /// review): every position searched, every move judged.
    pub fn set_review(&self, on: bool, depth: Option<u32>) -> Result<State, ApiError> {
        let depth = depth.unwrap_or(review::DEFAULT_DEPTH);
        if !(1..=review::MAX_DEPTH).contains(&depth) {
            return Err(ApiError::ReviewDepth(depth));
        }
        self.change(|inner| {
            if !on {
                inner.review = None;
                return Ok(());
            }
            if inner.moves.is_empty() {
                return Err(ApiError::NothingToReview);
            }
            // The review this game may run now ends first: its slot is free.
            inner.review = None;
            let slot = (self.shared.reviews.take())
                .ok_or_else(|| ApiError::TooManyReviews(self.shared.reviews.max()))?;
            inner.reviews_started += 1;
            let id = inner.reviews_started;
            let me = self.me.clone();
            let job = ReviewJob::start(
                inner.rules,
                inner.start.fen(),
                &inner.moves,
                depth,
                slot,
                move |event| {
                    if let Some(game) = me.upgrade() {
                        game.on_review_event(id, event);
                    }
                },
            );
            inner.review = Some(Review {
                moves: inner.moves.clone(),
                view: ReviewView {
                    depth,
                    done: 0,
                    total: inner.moves.len() + 1,
                    running: true,
                    error: None,
                    plies: Vec::new(),
                },
                job: Some(job),
                id,
            });
            Ok(())
        })
    }

    pub(super) fn on_review_event(&self, id: u64, event: ReviewEvent) {
        let state = {
            let mut inner = lock(&self.inner);
            let Some(review) = inner.review.as_mut().filter(|r| r.id == id) else {
                return;
            };
            match event {
                ReviewEvent::Progress(done, total) => {
                    review.view.done = done;
                    review.view.total = total;
                }
                ReviewEvent::Done(plies) => {
                    review.view.plies = plies;
                    review.view.running = false;
                    review.job = None;
                }
                ReviewEvent::Failed(why) => {
                    review.view.error = Some(why.to_string());
                    review.view.running = false;
                    review.job = None;
                }
            }
            inner.version += 1;
            self.state_of(&inner)
        };
        self.publish(sse("state", &state));
    }
}
