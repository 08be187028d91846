//! Which gateway holds a member's sockets: a stable hash of the address over
//! the network's gateways, so every socket of a member meets on one gateway
//! and any object can compute it without asking.

use super::messages::GatewayId;
use crate::ids::address::Address;

/// The network's gateways: how many, for how many members each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    gateways: GatewayId,
}

impl Placement {
    /// Enough gateways for `online` members at `per_gateway` each (at least one).
    pub fn for_members(online: u64, per_gateway: u64) -> Self {
        let needed = online.div_ceil(per_gateway.max(1)).max(1);
        Self {
            gateways: GatewayId::try_from(needed).unwrap_or(GatewayId::MAX),
        }
    }

    /// Exactly `gateways` gateways (at least one).
    pub fn with_gateways(gateways: GatewayId) -> Self {
        Self {
            gateways: gateways.max(1),
        }
    }

    /// How many gateways there are.
    pub fn gateways(&self) -> GatewayId {
        self.gateways
    }

    /// The gateway of `member` (FNV-1a of its address).
    pub fn of(&self, member: &Address) -> GatewayId {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in member.to_string().bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        GatewayId::try_from(hash % u64::from(self.gateways)).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_spread_over_the_gateways_and_stay_put() {
        let placement = Placement::for_members(10_000, 1_000);
        assert_eq!(placement.gateways(), 10);
        let mut counts = vec![0u32; 10];
        for i in 0..10_000 {
            let member: Address = format!("agent:m{i}").parse().unwrap();
            let at = placement.of(&member);
            assert_eq!(placement.of(&member), at, "stable");
            counts[at as usize] += 1;
        }
        assert!(
            counts.iter().all(|c| (800..=1_200).contains(c)),
            "{counts:?}"
        );
        assert_eq!(Placement::for_members(0, 1_000).gateways(), 1);
    }

    /// The npm package places a shared socket's agents by the same hash
    /// (`gatewayOf`, core/js/lib/lanes.js; tests/js/lanes.test.mjs has these too).
    #[test]
    fn the_hash_is_the_one_clients_compute() {
        let of = |address: &str, gateways| {
            let address: Address = address.parse().unwrap();
            Placement::with_gateways(gateways).of(&address)
        };
        assert_eq!(of("agent:ann", 2), 1);
        assert_eq!(of("agent:ann", 7), 6);
        assert_eq!(of("net1::agent:ben", 1024), 527);
        assert_eq!(Placement::with_gateways(0).gateways(), 1);
    }
}
