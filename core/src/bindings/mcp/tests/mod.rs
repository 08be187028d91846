//! MCP driven natively.
