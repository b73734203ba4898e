//! The archive's columns, stated once: the Arrow schema every part is
//! written with, rows turned into a record batch, and a batch read back
//! into the columns replay and `/history` need. The resource's kind and
//! the day are not columns of a part but its hive partition
//! (`kind=…/date=…/`), which DuckDB, pyarrow and polars read as columns.

use super::continuity::Continuity;
use super::row::Row;
use arrow_array::builder::{Float64Builder, Int64Builder, TimestampMillisecondBuilder};
use arrow_array::cast::AsArray;
use arrow_array::types::{Int64Type, TimestampMillisecondType};
use arrow_array::{
    Array, ArrayRef, Float64Array, ListArray, RecordBatch, StringArray, StructArray,
};
use arrow_buffer::OffsetBuffer;
use arrow_schema::{ArrowError, DataType, Field, Fields, Schema, SchemaRef, TimeUnit};
use std::sync::{Arc, LazyLock};

/// The fields of one book level.
fn level_fields() -> Fields {
    Fields::from(vec![
        Field::new("outcome", DataType::Utf8, false),
        Field::new("side", DataType::Utf8, false),
        Field::new("price", DataType::Float64, false),
        Field::new("size", DataType::Float64, false),
    ])
}

/// The fields of one number by path.
fn value_fields() -> Fields {
    Fields::from(vec![
        Field::new("path", DataType::Utf8, false),
        Field::new("value", DataType::Float64, false),
    ])
}

fn utc_ms() -> DataType {
    DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into()))
}

/// The schema of every part.
pub static SCHEMA: LazyLock<SchemaRef> = LazyLock::new(|| {
    Arc::new(Schema::new(vec![
        Field::new("id", DataType::Utf8, false),
        Field::new("platform", DataType::Utf8, true),
        Field::new("as_of", DataType::Utf8, true),
        Field::new("received", utc_ms(), false),
        Field::new("age_ms", DataType::Int64, false),
        Field::new("wanted_ms", DataType::Int64, true),
        Field::new("got_ms", DataType::Int64, true),
        Field::new("seq", DataType::Int64, false),
        Field::new("continuity", DataType::Utf8, false),
        Field::new("gap_ms", DataType::Int64, true),
        Field::new("mid", DataType::Float64, true),
        Field::new(
            "levels",
            DataType::List(Arc::new(Field::new(
                "item",
                DataType::Struct(level_fields()),
                false,
            ))),
            false,
        ),
        Field::new(
            "values",
            DataType::List(Arc::new(Field::new(
                "item",
                DataType::Struct(value_fields()),
                false,
            ))),
            false,
        ),
        Field::new("answer", DataType::Utf8, false),
    ]))
});

/// `rows` as one batch of `SCHEMA`.
pub fn batch(rows: &[Row]) -> Result<RecordBatch, ArrowError> {
    let text = |f: &dyn Fn(&Row) -> Option<&str>| -> ArrayRef {
        Arc::new(rows.iter().map(f).collect::<StringArray>())
    };
    let int = |f: &dyn Fn(&Row) -> Option<i64>| -> ArrayRef {
        let mut b = Int64Builder::with_capacity(rows.len());
        rows.iter().for_each(|r| b.append_option(f(r)));
        Arc::new(b.finish())
    };
    let mut received = TimestampMillisecondBuilder::with_capacity(rows.len());
    rows.iter()
        .for_each(|r| received.append_value(r.received_ms));
    let mut mid = Float64Builder::with_capacity(rows.len());
    rows.iter().for_each(|r| mid.append_option(r.mid));
    let columns: Vec<ArrayRef> = vec![
        text(&|r| Some(&r.id)),
        text(&|r| r.platform.as_deref()),
        text(&|r| r.as_of.as_deref()),
        Arc::new(received.finish().with_timezone("UTC")),
        int(&|r| Some(r.age_ms)),
        int(&|r| r.wanted_ms),
        int(&|r| r.place.got_ms),
        int(&|r| Some(r.place.seq)),
        text(&|r| Some(r.place.continuity.name())),
        int(&|r| r.place.continuity.gap_ms()),
        Arc::new(mid.finish()),
        levels(rows)?,
        values(rows)?,
        text(&|r| Some(&r.answer)),
    ];
    RecordBatch::try_new(SCHEMA.clone(), columns)
}

fn levels(rows: &[Row]) -> Result<ArrayRef, ArrowError> {
    let all = rows.iter().flat_map(|r| &r.levels);
    let items = StructArray::try_new(
        level_fields(),
        vec![
            Arc::new(
                all.clone()
                    .map(|l| Some(l.outcome))
                    .collect::<StringArray>(),
            ),
            Arc::new(all.clone().map(|l| Some(l.side)).collect::<StringArray>()),
            Arc::new(all.clone().map(|l| l.price).collect::<Float64Array>()),
            Arc::new(all.map(|l| l.size).collect::<Float64Array>()),
        ],
        None,
    )?;
    list(rows.iter().map(|r| r.levels.len()), items)
}

fn values(rows: &[Row]) -> Result<ArrayRef, ArrowError> {
    let all = rows.iter().flat_map(|r| &r.values);
    let items = StructArray::try_new(
        value_fields(),
        vec![
            Arc::new(
                all.clone()
                    .map(|(p, _)| Some(p.as_str()))
                    .collect::<StringArray>(),
            ),
            Arc::new(all.map(|(_, v)| *v).collect::<Float64Array>()),
        ],
        None,
    )?;
    list(rows.iter().map(|r| r.values.len()), items)
}

fn list(lengths: impl Iterator<Item = usize>, items: StructArray) -> Result<ArrayRef, ArrowError> {
    let field = Arc::new(Field::new("item", items.data_type().clone(), false));
    Ok(Arc::new(ListArray::try_new(
        field,
        OffsetBuffer::from_lengths(lengths),
        Arc::new(items),
        None,
    )?))
}

/// The columns of one archived row that replay and `/history` read.
#[derive(Debug, Clone, PartialEq)]
pub struct Stored {
    pub id: String,
    pub received_ms: i64,
    pub age_ms: i64,
    pub wanted_ms: Option<i64>,
    pub seq: i64,
    pub continuity: Continuity,
    pub answer: String,
}

/// The rows of one batch read from a part, skipping any row whose
/// continuity this version does not know.
pub fn stored(batch: &RecordBatch) -> Result<Vec<Stored>, ArrowError> {
    let column = |name: &str| {
        batch
            .column_by_name(name)
            .ok_or_else(|| ArrowError::SchemaError(format!("the part has no column {name}")))
    };
    let strings = |name: &str| -> Result<&StringArray, ArrowError> {
        column(name)?
            .as_string_opt::<i32>()
            .ok_or_else(|| ArrowError::SchemaError(format!("{name} is not text")))
    };
    let ints = |name: &str| -> Result<&arrow_array::PrimitiveArray<Int64Type>, ArrowError> {
        column(name)?
            .as_primitive_opt::<Int64Type>()
            .ok_or_else(|| ArrowError::SchemaError(format!("{name} is not an integer")))
    };
    let (id, continuity, answer) = (strings("id")?, strings("continuity")?, strings("answer")?);
    let (age, wanted, seq, gap) = (
        ints("age_ms")?,
        ints("wanted_ms")?,
        ints("seq")?,
        ints("gap_ms")?,
    );
    let received = column("received")?
        .as_primitive_opt::<TimestampMillisecondType>()
        .ok_or_else(|| ArrowError::SchemaError("received is not a timestamp".into()))?;
    let opt =
        |a: &arrow_array::PrimitiveArray<Int64Type>, i: usize| a.is_valid(i).then(|| a.value(i));
    Ok((0..batch.num_rows())
        .filter_map(|i| {
            Some(Stored {
                id: id.value(i).to_owned(),
                received_ms: received.value(i),
                age_ms: age.value(i),
                wanted_ms: opt(wanted, i),
                seq: seq.value(i),
                continuity: Continuity::parse(continuity.value(i), opt(gap, i))?,
                answer: answer.value(i).to_owned(),
            })
        })
        .collect())
}
