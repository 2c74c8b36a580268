//! The deals a view's seat may face, each a table at the view's position.

use super::position::{position, with_deal};
use crate::belief::{Belief, PlayModel};
use crate::model::{Mixture, PlayInference};
use crate::rng::Xoshiro;
use crate::state::Table;
use crate::view::View;

/// The deals a view's seat may face: sampled from its belief, each weighted by how likely the
/// other seats' plays were on it: under the learned mixture if one is given, else under the
/// heavy-tile model (`beta`, 0: all alike).
pub struct Deals {
    belief: Belief,
    template: Table,
    model: Option<PlayModel>,
    inference: Option<PlayInference>,
    seat: u8,
    hand: u32,
}

impl Deals {
    pub fn new(view: &View, beta: f64, mixture: Option<Mixture>) -> Result<Deals, String> {
        let belief = Belief::of(view)?;
        let (template, fits, lines) = position(view);
        let inference = mixture.map(|m| PlayInference::new(view, &lines, &fits, &belief.seats, m));
        let model = (inference.is_none() && beta != 0.0).then(|| PlayModel::new(view, &fits, beta));
        Ok(Deals {
            belief,
            template,
            model,
            inference,
            seat: view.seat,
            hand: view.hand,
        })
    }

    /// The next deal, as a Table at the view's position, and its weight.
    pub fn next(&mut self, rng: &mut Xoshiro) -> Result<(Table, f64), String> {
        let (placed, rest) = self.belief.sample(rng)?;
        let mut hands = [0u32; 4];
        hands[self.seat as usize] = self.hand;
        for (i, &s) in self.belief.seats.iter().enumerate() {
            hands[s as usize] = placed[i];
        }
        let weight = match (&self.inference, &self.model) {
            (Some(inference), _) => inference.likelihood(&hands),
            (None, Some(model)) => model.likelihood(&hands),
            (None, None) => 1.0,
        };
        Ok((with_deal(&self.template, &hands, &rest), weight))
    }
}
