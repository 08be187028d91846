//! Any string as an address, URI or DID: parsing never panics and `Display`
//! round-trips with parsing.
#![no_main]

use agentnet_core::Address;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(address) = text.parse::<Address>() {
        assert_eq!(
            address.to_string().parse::<Address>().as_ref(),
            Ok(&address)
        );
        assert_eq!(Address::from_uri(&address.to_uri()).as_ref(), Ok(&address));
    }
    let _ = Address::from_uri(text);
    let _ = Address::from_did(text);
});
