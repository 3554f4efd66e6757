"""Corpus runs through Ray Data, a Dask bag and Spark give the bytes of `overtalk analyze
--format jsonl` on the 170 AMI meetings, with the library's own helpers and no user
serialisation. Spark is behind the `spark` marker: `pytest -m spark` (needs a Java runtime)."""

import pickle

import pytest

import overtalk
import overtalk.corpus as oc


@pytest.fixture(scope="module")
def expected(ami, cli):
    return cli("analyze", ami, "--format", "jsonl").decode()


def test_rows_have_the_flat_columns_and_pickle(ami_files):
    rows = oc.analyze_item(ami_files[0])
    assert len(rows) == 1 and list(rows[0]) == oc.FIELDS
    a = overtalk.analyze(overtalk.read(ami_files[0])[rows[0]["recording"]])
    assert rows[0]["json"] + "\n" == a.to_jsonl()
    assert rows[0]["overlap_ms"] == a.conversation["overlap"]
    assert rows[0]["speakers"] == a.conversation["counts"]["speakers"]
    # Bytes with a name give the same row as the path.
    data = ami_files[0].read_bytes()
    assert oc.analyze_item((ami_files[0].name, data))[0]["json"] == rows[0]["json"]
    assert pickle.loads(pickle.dumps(oc.analyze_batch))  # the helpers travel to workers


def test_an_input_where_nobody_speaks_is_an_error_as_on_the_command_line(tmp_path):
    """An empty or blank file gives no row silently: it is refused, naming the input, in the
    words of `overtalk analyze` (`overtalk: error: PATH: the input holds no speech …`); the
    reader's warnings say why nothing was left."""
    empty = tmp_path / "empty.rttm"
    empty.write_bytes(b"")
    with pytest.raises(overtalk.OvertalkError) as e:
        oc.analyze_item(str(empty))
    assert str(e.value) == f"{empty}: the input holds no speech (no segment, turn or word): nothing to describe"
    # A caption with no text: the reader's warning comes with the error.
    blank = b"1\n00:00:01,000 --> 00:00:02,000\n\n"
    with pytest.raises(overtalk.OvertalkError, match=r"^x\.srt: the input holds no speech .*nothing to describe \(the reader: .+\)$"):
        oc.analyze_item(("x.srt", blank))
    with pytest.raises(overtalk.OvertalkError, match=r"^<bytes>: the input holds no speech"):
        oc.analyze_batch({"bytes": [blank]})


def test_batch_formats(ami_files):
    pa = pytest.importorskip("pyarrow")
    pd = pytest.importorskip("pandas")
    paths = [str(p) for p in ami_files[:3]]
    ref = oc.analyze_batch(paths)
    assert oc.analyze_batch({"path": paths}) == ref
    assert oc.analyze_batch(pd.DataFrame({"path": paths})) == ref
    assert oc.analyze_batch(pa.table({"path": paths})) == ref
    (batch,) = oc.analyze_arrow([pa.table({"path": paths}).to_batches()[0]])
    assert batch.schema == oc.arrow_schema() and batch.to_pydict() == ref
    table = oc.analyze_batch_arrow(pa.table({"path": paths}))
    assert table.schema == oc.arrow_schema() and table.to_pydict() == ref
    assert oc.analyze_batch_arrow(paths, "he2010").to_pydict() == oc.analyze_batch(paths, "he2010")
    with pytest.raises(KeyError, match="a batch needs a 'path' or a 'bytes' column"):
        oc.analyze_batch_arrow({"file": paths})


def test_arrow_batches_split_where_a_string_column_would_overflow(ami_files):
    """The Arrow helpers keep each string column under its 32-bit offsets: with a small limit
    the rows come in several batches, the same rows in the same order; a single conversation
    over the limit is an error, not a truncated column."""
    pa = pytest.importorskip("pyarrow")
    paths = [str(p) for p in ami_files[:3]]
    ref = oc.analyze_batch(paths)
    cols = oc._batch_columns(paths, "default", {}, True)
    sizes = [len(b) for b in cols["json"]]
    batches = oc._arrow_batches(cols, limit=max(sizes) + 1)
    assert [b.num_rows for b in batches] == [1, 1, 1]
    assert pa.Table.from_batches(batches).to_pydict() == ref
    (one,) = oc._arrow_batches(cols, limit=sum(sizes) + 1)
    assert one.to_pydict() == ref
    empty = oc._arrow_batches(oc._batch_columns([], "default", {}, True))
    assert [b.num_rows for b in empty] == [0] and empty[0].schema == oc.arrow_schema()
    with pytest.raises(ValueError, match="more than an Arrow string column takes"):
        oc._arrow_batches(cols, limit=min(sizes))


def test_analyze_many_gives_the_cli_jsonl(ami, ami_files, expected):
    """One batch call over the 170 meetings, on every core: the bytes of the command line."""
    got = overtalk.analyze_many(overtalk.read(ami_files))
    assert len(got) == 170
    assert "".join(a.to_jsonl() for a in got) == expected
    assert "".join(a.to_jsonl() for a in overtalk.analyze_many(ami, threads=1)) == expected


@pytest.mark.parametrize("reservation", [True, False], ids=["default", "recipe"])
def test_ray_data_map_batches(ami_files, expected, reservation):
    """Ray Data's defaults with `analyze_batch`, and the recipe of docs/python.md (no
    per-operator reservation, so that every worker runs from the start, and the rows as Arrow
    tables): the same rows either way."""
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    ctx = ray.data.DataContext.get_current()
    before = ctx.op_resource_reservation_enabled
    ctx.op_resource_reservation_enabled = reservation
    try:
        ds = ray.data.from_items([{"path": str(p)} for p in ami_files], override_num_blocks=4)
        if reservation:
            rows = ds.map_batches(oc.analyze_batch, batch_size=16).take_all()
        else:
            rows = ds.map_batches(oc.analyze_batch_arrow, batch_size=16, batch_format="pyarrow").take_all()
    finally:
        ctx.op_resource_reservation_enabled = before
        ray.shutdown()
    assert len(rows) == 170
    assert oc.to_jsonl(rows) == expected


def test_dask_bag_map(ami_files, expected):
    db = pytest.importorskip("dask.bag")
    import dask

    bag = db.from_sequence([str(p) for p in ami_files], npartitions=4)
    with dask.config.set(scheduler="processes", num_workers=2):
        rows = bag.map(oc.analyze_item).flatten().compute()
    assert len(rows) == 170
    assert oc.to_jsonl(rows) == expected


@pytest.mark.spark
def test_spark_map_in_arrow(ami_files, expected):
    pyspark = pytest.importorskip("pyspark")
    import os
    import sys

    from pyspark.sql import SparkSession

    # The workers run this interpreter (the one with overtalk installed), not `python3` on PATH.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("overtalk-test")
        .config("spark.ui.enabled", "false")
        .config("spark.pyspark.python", sys.executable)
        .getOrCreate()
    )
    try:
        df = spark.createDataFrame([(str(p),) for p in ami_files], "path string").repartition(4)
        rows = [r.asDict() for r in df.mapInArrow(oc.analyze_arrow, oc.SPARK_SCHEMA).collect()]
    finally:
        spark.stop()
    assert len(rows) == 170
    assert oc.to_jsonl(rows) == expected
