//! The carry's jobs ([`crate::skeleton::Spread`]) handed to the page's helper workers: the
//! page has one thread per worker, and the template bodies' overlays and bends are most of a
//! default rig, so the rig worker spreads them over helpers that answer with
//! [`answer_carry_job`].

use std::future::Future;
use std::pin::Pin;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::js_error;
use crate::skeleton::{Answers, Spread};

/// A JS function from an array of encoded jobs (`Uint8Array`s) to a promise of their
/// encoded answers, in order.
pub(super) struct Helpers(pub js_sys::Function);

impl Spread for Helpers {
    fn run<'a>(&'a self, jobs: Vec<Vec<u8>>) -> Pin<Box<dyn Future<Output = Answers> + 'a>> {
        Box::pin(async move {
            let array: js_sys::Array = (jobs.iter())
                .map(|job| JsValue::from(js_sys::Uint8Array::from(job.as_slice())))
                .collect();
            let promise = (self.0.call1(&JsValue::NULL, &array))
                .map_err(|e| format!("the helpers did not start: {e:?}"))?
                .dyn_into::<js_sys::Promise>()
                .map_err(|_| "the helpers gave no promise".to_string())?;
            let answers = JsFuture::from(promise)
                .await
                .map_err(|e| format!("a helper failed: {e:?}"))?;
            let answers = answers
                .dyn_into::<js_sys::Array>()
                .map_err(|_| "the helpers gave no array".to_string())?;
            (answers.iter())
                .map(|a| {
                    (a.dyn_into::<js_sys::Uint8Array>())
                        .map(|bytes| bytes.to_vec())
                        .map_err(|_| "a helper's answer is not bytes".to_string())
                })
                .collect()
        })
    }
}

/// A helper worker's answer to one encoded carry job, encoded.
#[wasm_bindgen(js_name = answerCarryJob)]
pub fn answer_carry_job(job: &[u8]) -> Result<Vec<u8>, JsError> {
    crate::skeleton::answer(job).map_err(js_error)
}
