//! The deals a view's seat may face, each a table at the view's position.

use super::position::{position, with_deal};
use crate::belief::{Belief, PlayModel, Rest};
use crate::model::{Mixture, PlayInference};
use crate::rng::Xoshiro;
use crate::state::Table;
use crate::view::View;

/// The deals a view's seat may face: sampled from its belief, each weighted by how likely the
/// other seats' plays were on it: under the learned mixture if one is given, else under the
/// heavy-tile model (`beta`, 0: all alike). With `resample` above 1, each deal is one of that
/// many drawn, picked in proportion to their weights and weighted by their mean (sampling
/// importance resampling: the playouts go where the model puts its weight, and the weighted
/// means stay unbiased).
pub struct Deals {
    belief: Belief,
    template: Table,
    model: Option<PlayModel>,
    inference: Option<PlayInference>,
    seat: u8,
    hand: u32,
    resample: usize,
    /// The deals drawn for the one searched, kept from deal to deal.
    drawn: Vec<([u32; 4], Rest, f64)>,
}

impl Deals {
    pub fn new(
        view: &View,
        beta: f64,
        mixture: Option<Mixture>,
        resample: usize,
    ) -> Result<Deals, String> {
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
            resample,
            drawn: Vec::with_capacity(resample),
        })
    }

    /// The next deal, as a Table at the view's position, and its weight.
    pub fn next(&mut self, rng: &mut Xoshiro) -> Result<(Table, f64), String> {
        if self.resample <= 1 || self.inference.is_none() && self.model.is_none() {
            let (hands, rest, weight) = self.draw(rng)?;
            return Ok((with_deal(&self.template, &hands, &rest), weight));
        }
        self.drawn.clear();
        for _ in 0..self.resample {
            let deal = self.draw(rng)?;
            self.drawn.push(deal);
        }
        let total: f64 = self.drawn.iter().map(|d| d.2).sum();
        let mut pick = rng.random() * total;
        let chosen = self
            .drawn
            .iter()
            .position(|d| {
                pick -= d.2;
                pick < 0.0
            })
            .unwrap_or(self.resample - 1);
        let (hands, rest, _) = &self.drawn[chosen];
        Ok((
            with_deal(&self.template, hands, rest),
            total / self.resample as f64,
        ))
    }

    /// A deal drawn uniformly from the belief: every hand, the rest, and its weight.
    fn draw(&mut self, rng: &mut Xoshiro) -> Result<([u32; 4], Rest, f64), String> {
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
        Ok((hands, rest, weight))
    }
}
