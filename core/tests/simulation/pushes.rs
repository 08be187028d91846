//! Push notifications in the simulation: a task's changes queue a
//! notification per push target (`agentnet_core::model::push`), and the
//! host sends what is due from its alarm as the edge does
//! (`edge-worker/src/a2a/push.rs`): it takes the due notifications, renders
//! each at once, and reports each outcome when its request ends.
//!
//! One seeded RNG drives a schedule of task changes, sends that take up to
//! 20 s, fail (some after the receiver got them), and restarts of the
//! network object (rebuilt from its rows: the outcomes of the sends in
//! flight are never reported, the sends themselves may still land). After
//! the chaotic phase every task is completed, failures stop, and the run
//! goes on until nothing is queued or in flight. Then each target of each
//! task received the task's final version, and never an older version
//! after a newer one (a version is the `v{n}` of the task's status message).

use super::{Rng, assert_each_happened, member, runs, seeds_or_replayed};
use agentnet_core::bindings::a2a::push::render;
use agentnet_core::client::Client;
use agentnet_core::host::MemoryHost;
use agentnet_core::model::config::NetworkConfig;
use agentnet_core::model::push::{MAX_ATTEMPTS, PendingPush};
use agentnet_core::network::{Effect, Network};
use agentnet_core::{Address, Timestamp};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use serde_json::{Value, json};
use std::collections::BTreeMap;

const TASKS: usize = 3;
const CHAOS_TICKS: usize = 300;
const HEAL_TICKS: usize = 3_000;
/// The longest a send takes (below the queue's in-flight hold of 30 s).
const MAX_SEND_MS: usize = 20_000;

/// How a send the host started ends.
struct Send {
    /// When its request ends.
    at: u64,
    /// The notification as the host took it.
    taken: PendingPush,
    /// The version its body carries (`None`: nothing to send).
    version: Option<u64>,
    /// The receiver got it.
    lands: bool,
    /// The host reports it (`Some(true)`: done, `Some(false)`: failed;
    /// `None`: the network restarted meanwhile, nobody reports it).
    report: Option<bool>,
}

/// A task as the simulation drives it.
struct Run {
    id: String,
    /// The last version its partner made.
    made: u64,
    working: bool,
    done: bool,
}

struct PushSim {
    rng: Rng,
    now: u64,
    config: NetworkConfig,
    network: Network,
    host: MemoryHost,
    requester: Client,
    partner: Client,
    runs: Vec<Run>,
    sends: Vec<Send>,
    /// The versions each notification key (`{task}/{target}`) received, in order.
    received: BTreeMap<String, Vec<u64>>,
    /// Changes made while a notification of the task was being sent.
    raced: usize,
    /// Restarts of the network object with sends in flight.
    restarts: usize,
}

fn address(name: &str) -> Address {
    name.parse().unwrap()
}

/// The version a notification's body carries: its task's status message `v{n}`.
fn version_of(body: &str) -> Option<u64> {
    let body: Value = serde_json::from_str(body).ok()?;
    let task = body.get("task").unwrap_or(&body);
    let text = task["status"]["message"]["parts"][0]["text"].as_str()?;
    text.strip_prefix('v')?.parse().ok()
}

impl PushSim {
    fn new(seed: u64) -> Self {
        let mut rng = Rng(ChaCha8Rng::seed_from_u64(seed));
        let mut bytes = [[0u8; 32]; 3];
        for b in &mut bytes {
            rng.0.fill_bytes(b);
        }
        let mut config = NetworkConfig::open("sim".parse().unwrap(), "Sim");
        config.presence_timeout_ms = u64::MAX / 4;
        let rows = vec![
            member(address("agent:req")),
            member(address("agent:partner")),
        ];
        let mut host = MemoryHost::default();
        for row in &rows {
            host.rows.insert((row.kind(), row.key()), row.clone());
        }
        let network = Network::new(config.clone(), rows, 0, bytes[0]);
        let client =
            |name: &str, seed| Client::new(name.parse().unwrap(), "sim".parse().unwrap(), seed);
        let mut sim = Self {
            rng,
            now: 1,
            config,
            network,
            host,
            requester: client("agent:req", bytes[1]),
            partner: client("agent:partner", bytes[2]),
            runs: Vec::new(),
            sends: Vec::new(),
            received: BTreeMap::new(),
            raced: 0,
            restarts: 0,
        };
        sim.start();
        sim
    }

    fn apply(&mut self, effects: Vec<Effect>) -> Vec<Effect> {
        self.host
            .apply(&mut self.network, effects, Timestamp::from(self.now))
    }

    /// Submits an event of `who` (0: the requester, 1: the partner); its ack's payload.
    fn submit(&mut self, who: usize, kind: &str, target: &str, payload: Value) -> Value {
        let now = self.now;
        let client = if who == 0 {
            &mut self.requester
        } else {
            &mut self.partner
        };
        let source = client.address().clone();
        let event = client.event(
            kind.parse().unwrap(),
            target.parse().unwrap(),
            payload,
            Timestamp::from(now),
        );
        let effects = self
            .network
            .handle_event(Some(&source), event, Timestamp::from(now));
        let applied = self.apply(effects);
        applied
            .iter()
            .find_map(|e| match e {
                Effect::Ack(ack) => Some(ack.to_event().payload),
                Effect::Reply(reply) => panic!("{kind} refused: {}", reply.payload),
                _ => None,
            })
            .unwrap_or_default()
    }

    /// Both join; the requester starts the tasks, each with two push targets.
    fn start(&mut self) {
        for who in 0..2 {
            let now = self.now;
            let client = if who == 0 {
                &mut self.requester
            } else {
                &mut self.partner
            };
            let join = client.join(None, Timestamp::from(now));
            let effects = self.network.handle_event(None, join, Timestamp::from(now));
            self.apply(effects);
        }
        for _ in 0..TASKS {
            self.now += 1;
            let payload = json!({"parts": [{"text": "go"}]});
            let ack = self.submit(0, "task.create", "agent:partner", payload);
            let id = ack["task"]
                .as_str()
                .unwrap_or_else(|| panic!("no task made: {ack}"))
                .to_owned();
            for (target, version) in [("hook-a", "1.0"), ("hook-b", "0.3")] {
                let url = format!("https://{target}.test/a2a");
                let set = json!({"id": target, "url": url, "version": version});
                self.submit(0, "task.push", "core", json!({"task": id, "set": set}));
            }
            self.runs.push(Run {
                id,
                made: 0,
                working: false,
                done: false,
            });
        }
    }

    /// The partner changes task `i`: its next state (completed when `finish`
    /// and it may) with the next version as its status message.
    fn change(&mut self, i: usize, finish: bool) {
        let run = &self.runs[i];
        let state = match (run.working, finish) {
            (false, _) => "working",
            (true, true) => "completed",
            (true, false) => "awaiting-input",
        };
        let (id, version) = (run.id.clone(), run.made + 1);
        if self
            .sends
            .iter()
            .any(|s| s.taken.task == id && s.report.is_some())
        {
            self.raced += 1;
        }
        let payload =
            json!({"task": id, "state": state, "parts": [{"text": format!("v{version}")}]});
        self.submit(1, "task.update", "agent:req", payload);
        let run = &mut self.runs[i];
        run.made = version;
        run.working = state == "working";
        run.done = state == "completed";
    }

    /// The alarm: the network's own work, then the notifications due, sent.
    fn alarm(&mut self, chaotic: bool) {
        if self
            .network
            .next_wakeup()
            .is_none_or(|at| at > Timestamp::from(self.now))
        {
            return;
        }
        let effects = self.network.on_alarm(Timestamp::from(self.now));
        self.apply(effects);
        let (due, effects) = self.network.take_due_pushes(Timestamp::from(self.now));
        self.apply(effects);
        for taken in due {
            let version = render(&self.network, &taken, Timestamp::from(self.now)).map(|out| {
                version_of(&out.body).unwrap_or_else(|| panic!("no version in {}", out.body))
            });
            let may_fail = chaotic && version.is_some() && taken.attempts + 2 < MAX_ATTEMPTS;
            let failed = may_fail && self.rng.chance(0.3);
            // A failed request may still have reached the receiver (its answer was lost).
            let lands = version.is_some() && (!failed || self.rng.chance(0.3));
            let at = self.now + 1 + self.rng.below(MAX_SEND_MS) as u64;
            self.sends.push(Send {
                at,
                taken,
                version,
                lands,
                report: Some(!failed),
            });
        }
    }

    /// The sends whose requests end by now: what landed, and their outcomes.
    fn finish_sends(&mut self) {
        self.sends.sort_by_key(|s| s.at);
        let ended = self.sends.iter().take_while(|s| s.at <= self.now).count();
        for send in self.sends.drain(..ended).collect::<Vec<_>>() {
            if let (true, Some(version)) = (send.lands, send.version) {
                self.received
                    .entry(send.taken.key.clone())
                    .or_default()
                    .push(version);
            }
            let effects = match send.report {
                Some(true) => self
                    .network
                    .push_done(&send.taken, Timestamp::from(self.now)),
                Some(false) => self
                    .network
                    .push_failed(&send.taken, Timestamp::from(self.now)),
                None => continue,
            };
            self.apply(effects);
        }
    }

    /// The network object restarts from its rows: no send in flight is reported.
    fn restart(&mut self) {
        let mut seed = [0u8; 32];
        self.rng.0.fill_bytes(&mut seed);
        let rows = self.host.state_rows();
        self.network = Network::new(self.config.clone(), rows, self.host.last_seq(), seed);
        for send in &mut self.sends {
            send.report = None;
        }
        self.restarts += usize::from(!self.sends.is_empty());
    }

    fn tick(&mut self, chaotic: bool) {
        self.now += 1 + self.rng.below(3_000) as u64;
        for i in 0..self.runs.len() {
            if self.runs[i].done {
                continue;
            }
            if !chaotic {
                self.change(i, true);
            } else if self.rng.chance(0.3) {
                let finish = self.runs[i].made >= 2 && self.rng.chance(0.15);
                self.change(i, finish);
            }
        }
        if chaotic && self.rng.chance(0.01) {
            self.restart();
        }
        self.alarm(chaotic);
        self.finish_sends();
    }

    fn quiet(&self) -> bool {
        self.runs.iter().all(|r| r.done)
            && self.sends.is_empty()
            && self.network.state().pushes.is_empty()
    }

    fn run(&mut self) -> Result<(), String> {
        for _ in 0..CHAOS_TICKS {
            self.tick(true);
        }
        for _ in 0..HEAL_TICKS {
            if self.quiet() {
                break;
            }
            self.tick(false);
        }
        if !self.quiet() {
            return Err(format!(
                "the run did not settle: queued {:?}, {} sends in flight",
                self.network.state().pushes.keys().collect::<Vec<_>>(),
                self.sends.len()
            ));
        }
        for run in &self.runs {
            for target in ["hook-a", "hook-b"] {
                let key = format!("{}/{target}", run.id);
                let got = self.received.get(&key).cloned().unwrap_or_default();
                if !got.windows(2).all(|w| w[0] <= w[1]) {
                    return Err(format!("{key} received versions out of order: {got:?}"));
                }
                if got.last() != Some(&run.made) {
                    return Err(format!(
                        "{key} never received the final version {}: {got:?}",
                        run.made
                    ));
                }
            }
        }
        Ok(())
    }
}

#[test]
fn every_push_target_receives_its_tasks_final_version_in_order() {
    let (mut raced, mut restarts) = (0, 0);
    for seed in seeds_or_replayed(0..runs() / 4) {
        let mut sim = PushSim::new(seed);
        if let Err(problem) = sim.run() {
            panic!(
                "push simulation seed {seed} failed: {problem}\nreplay with AGENTNET_SIM_SEED={seed}"
            );
        }
        raced += sim.raced;
        restarts += sim.restarts;
    }
    assert_each_happened(&[
        (raced, "no task changed while its notification was sent"),
        (restarts, "no send was in flight at a restart"),
    ]);
}
