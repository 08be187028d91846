//! The handover's checks of names, rows and values, without SQLite.

use super::*;

fn table(name: &str, columns: &[&str], rows: Vec<Vec<Value>>) -> Table {
    Table {
        name: name.into(),
        schema: String::new(),
        columns: columns.iter().map(|c| (*c).to_owned()).collect(),
        rows,
    }
}

#[test]
fn a_table_the_adopter_keeps_becomes_one_statement_with_every_row() {
    let rows = Rows {
        tables: vec![table(
            "agents",
            &["name", "record"],
            vec![
                vec![Value::from("alice"), Value::from("{}")],
                vec![Value::from("bob"), Value::from("{\"x\":1}")],
            ],
        )],
    };
    let made = statements(&rows, &["agents", "meta"]).expect("kept");
    assert_eq!(made.len(), 1);
    assert_eq!(made[0].table, "agents");
    assert_eq!(
        made[0].text,
        "INSERT OR REPLACE INTO agents (name, record) VALUES (?, ?)"
    );
    assert_eq!(made[0].rows.len(), 2);
}

#[test]
fn a_table_the_adopter_does_not_keep_is_left_out() {
    let unknown = Rows {
        tables: vec![
            table("secrets", &["a"], vec![vec![Value::from(1)]]),
            table("meta", &["key", "value"], vec![]),
        ],
    };
    let made = statements(&unknown, &["agents", "meta"]).expect("kept");
    assert_eq!(made.len(), 1);
    assert!(made[0].text.starts_with("INSERT OR REPLACE INTO meta "));
}

#[test]
fn names_that_are_not_identifiers_short_rows_and_nested_values_are_refused() {
    let injected = Rows {
        tables: vec![table(
            "agents",
            &["name) VALUES (1); DROP TABLE meta; --"],
            vec![],
        )],
    };
    assert_eq!(
        statements(&injected, &["agents"])
            .map(|_| ())
            .map_err(|e| e.code()),
        Err("handover_bad_name")
    );
    let short = Rows {
        tables: vec![table(
            "agents",
            &["name", "record"],
            vec![vec![Value::from("a")]],
        )],
    };
    assert_eq!(
        statements(&short, &["agents"]).map(|_| ()),
        Err(HandoverError::BadRow("agents".into()))
    );
    let nested = Rows {
        tables: vec![table(
            "agents",
            &["name"],
            vec![vec![serde_json::json!([1])]],
        )],
    };
    assert_eq!(
        statements(&nested, &["agents"])
            .map(|_| ())
            .map_err(|e| e.code()),
        Err("handover_bad_value")
    );
}

#[test]
fn every_value_sqlite_holds_comes_back_as_it_went() {
    for value in [
        SqlStorageValue::Null,
        SqlStorageValue::Integer(-42),
        SqlStorageValue::Integer(i64::MAX),
        SqlStorageValue::Float(0.5),
        SqlStorageValue::String("ünïcode".into()),
        SqlStorageValue::Blob(vec![0, 1, 255]),
    ] {
        let json = serde_json::to_string(&carried(value.clone())).expect("json");
        let back: Value = serde_json::from_str(&json).expect("parsed");
        assert_eq!(stored(&back, "t").expect("stored"), value);
    }
}

#[test]
fn identifiers_are_plain_names_only() {
    assert!(identifier("discovery_changes").is_ok());
    for bad in ["", "1table", "a b", "a\"b", "a;b", "é"] {
        assert!(identifier(bad).is_err(), "{bad:?}");
    }
}
