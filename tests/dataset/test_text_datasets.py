"""TextFileDataset, WikiTextDataset, YelpReviewDataset, AmazonReviewDataset, SQuADDataset on small generated
files; the expectations are what MindSpore 2.10 read from the same files (observed on MindSpore 2.10 CPU,
on a 2-core machine: its default of 2 workers sets the order of rows from several files, so the tests
that read several files pass num_parallel_workers=2)."""
import json
import os

import numpy as np
import pytest

import mslab
import mslab.dataset as ds


def rows(dataset):
    return list(dataset.create_tuple_iterator(output_numpy=True, num_epochs=1))


def texts(dataset, col=0):
    return [r[col].tolist() for r in rows(dataset)]


@pytest.fixture
def wiki(tmp_path):
    w = tmp_path / "wikitext"
    w.mkdir()
    (w / "wiki.train.tokens").write_text(" \n = Valkyria = \n \n Senjō no Valkyria 3 : <unk> Chronicles \n\nlast line",
                                         encoding="utf8")
    (w / "wiki.valid.tokens").write_text("v1\nv2\n")
    (w / "wiki.test.tokens").write_text("t1\n")
    return str(w)


def test_wikitext_lines_and_turns(wiki):
    train = ds.WikiTextDataset(wiki, usage="train", shuffle=False)
    assert train.get_col_names() == ["text"] and train.get_dataset_size() == 5
    # observed: empty lines are skipped, lines of spaces kept; "all" reads test, train, valid in turn
    assert texts(train) == [" ", " = Valkyria = ", " ", " Senjō no Valkyria 3 : <unk> Chronicles ", "last line"]
    assert texts(ds.WikiTextDataset(wiki, shuffle=False, num_parallel_workers=2)) == [
        "t1", " ", "v1", " = Valkyria = ", "v2", " ", " Senjō no Valkyria 3 : <unk> Chronicles ", "last line"]
    assert sorted(texts(ds.WikiTextDataset(wiki, usage="valid"))) == ["v1", "v2"]  # shuffled by default
    with pytest.raises(ValueError, match=r"Input usage is not within the valid set of \['train', 'valid', 'test', "):
        ds.WikiTextDataset(wiki, usage="dev")


def test_text_file_dataset(tmp_path, wiki):
    t = tmp_path / "t.txt"
    t.write_bytes(b"line one\n\n  \nline two\r\nlast")
    assert texts(ds.TextFileDataset(str(t), shuffle=False)) == ["line one", "  ", "line two\r", "last"]  # observed
    both = ds.TextFileDataset([str(t), os.path.join(wiki, "wiki.valid.tokens")], shuffle=False, num_parallel_workers=2)
    assert texts(both) == ["line one", "v1", "  ", "v2", "line two\r", "last"]  # observed: in turn
    assert ds.TextFileDataset(os.path.join(wiki, "*.tokens"), shuffle=False).get_dataset_size() == 8
    assert ds.TextFileDataset(str(t), num_samples=2, shuffle=False).get_dataset_size() == 2
    with pytest.raises(ValueError, match="The following patterns did not match any files"):
        ds.TextFileDataset(str(tmp_path / "nope.txt"))
    mslab.set_seed(0)
    files = ds.TextFileDataset([str(t), os.path.join(wiki, "wiki.valid.tokens")], shuffle=ds.Shuffle.FILES,
                               num_parallel_workers=2)
    orders = {tuple(texts(files)) for _ in range(8)}
    assert orders <= {("line one", "v1", "  ", "v2", "line two\r", "last"),
                      ("v1", "line one", "v2", "  ", "line two\r", "last")} and len(orders) == 2
    infile = texts(ds.TextFileDataset([str(t), os.path.join(wiki, "wiki.valid.tokens")], shuffle=ds.Shuffle.INFILE,
                                      num_parallel_workers=2))
    assert sorted(infile[1:4:2]) == ["v1", "v2"] and sorted(infile) == sorted(texts(both))


def test_yelp_and_amazon_csv(tmp_path):
    y = tmp_path / "yelp"
    y.mkdir()
    (y / "train.csv").write_text('"1","Bad, very bad.\\nNever again"\n"2","Good ""quoted"" text"\n"1","third"\n')
    (y / "test.csv").write_text('"2","test one"\n')
    train = ds.YelpReviewDataset(str(y), usage="train", shuffle=False)
    got = [[a.tolist() for a in r] for r in rows(train)]
    # observed: the label is text, "\n" in the file stays a backslash and an n, doubled quotes become one
    assert train.get_col_names() == ["label", "text"]
    assert got == [["1", "Bad, very bad.\\nNever again"], ["2", 'Good "quoted" text'], ["1", "third"]]
    assert rows(train)[0][0].dtype == np.dtype("<U1")
    assert [r[1].tolist() for r in rows(ds.YelpReviewDataset(str(y), shuffle=False, num_parallel_workers=2))] == [
        "Bad, very bad.\\nNever again", "test one", 'Good "quoted" text', "third"]  # train and test in turn
    (y / "train.csv").write_text('1,plain text\n"2","x"\n\n"3","after blank"\n')
    assert [[a.tolist() for a in r] for r in rows(ds.YelpReviewDataset(str(y), usage="train", shuffle=False))] == [
        ["1", "plain text"], ["2", "x"], ["3", "after blank"]]
    (y / "train.csv").write_text('"1","a"\n"2"\n')
    with pytest.raises(RuntimeError, match="record 2 of .*train.csv has 1 field"):
        rows(ds.YelpReviewDataset(str(y), usage="train", shuffle=False))
    a = tmp_path / "amazon"
    a.mkdir()
    (a / "train.csv").write_text('"1","Title one","Content, one"\n"2","T2","C2"\n')
    amazon = ds.AmazonReviewDataset(str(a), usage="train", shuffle=False)
    assert amazon.get_col_names() == ["label", "title", "content"]
    assert [[x.tolist() for x in r] for r in rows(amazon)] == [["1", "Title one", "Content, one"], ["2", "T2", "C2"]]
    with pytest.raises(ValueError, match=r"Input usage is not within the valid set of \['train', 'test', 'all'\]."):
        ds.AmazonReviewDataset(str(a), usage="valid")
    with pytest.raises(ValueError, match="does not exist or is not a directory"):
        ds.YelpReviewDataset(str(tmp_path / "nope"))


def test_squad(tmp_path):
    s = tmp_path / "squad"
    s.mkdir()
    doc = {"version": "v1.1", "data": [{"title": "T", "paragraphs": [{
        "context": "Architecturally, the school has a Catholic character.", "qas": [
            {"answers": [{"answer_start": 34, "text": "Catholic"}, {"answer_start": 34, "text": "Catholic character"}],
             "question": "What character?", "id": "q1"},
            {"answers": [{"answer_start": 0, "text": "Architecturally"}], "question": "First word?", "id": "q2"}]}]}]}
    (s / "train-v1.1.json").write_text(json.dumps(doc))
    (s / "dev-v1.1.json").write_text(json.dumps(doc))
    data = ds.SQuADDataset(str(s), usage="train", shuffle=False)
    assert data.get_col_names() == ["context", "question", "text", "answer_start"]  # observed
    first = rows(data)[0]
    assert first[0].tolist() == "Architecturally, the school has a Catholic character."
    assert first[1].tolist() == "What character?" and first[2].tolist() == ["Catholic", "Catholic character"]
    assert first[3].tolist() == [34, 34] and first[3].dtype == np.uint32
    assert ds.SQuADDataset(str(s), usage="dev").get_dataset_size() == 2


def test_squad_2_unanswerable_and_all(tmp_path):
    s = tmp_path / "squad2"
    s.mkdir()

    def doc(tag, n):
        qas = [{"answers": [{"answer_start": 1, "text": "tx"}], "question": f"{tag}{i}", "id": f"{tag}{i}"}
               for i in range(n)]
        qas.append({"plausible_answers": [{"text": "p", "answer_start": 2}], "answers": [],
                    "question": f"{tag}-impossible", "id": "z", "is_impossible": True})
        return {"version": "v2.0", "data": [{"title": "T", "paragraphs": [{"context": f"ctx {tag}", "qas": qas}]}]}

    (s / "train-v2.0.json").write_text(json.dumps(doc("tr", 3)))
    (s / "dev-v2.0.json").write_text(json.dumps(doc("dv", 1)))
    last = rows(ds.SQuADDataset(str(s), usage="train", shuffle=False))[-1]
    assert [x.tolist() for x in last] == ["ctx tr", "tr-impossible", [""], [4294967295]]  # observed
    assert texts(ds.SQuADDataset(str(s), shuffle=False, num_parallel_workers=2), 1) == [
        "tr0", "dv0", "tr1", "dv-impossible", "tr2", "tr-impossible"]  # observed: train and dev in turn


def test_files_go_to_workers_in_turn(tmp_path):
    paths = []
    for k, n in enumerate((3, 1, 2)):
        paths.append(str(tmp_path / f"f{k}.txt"))
        with open(paths[-1], "w") as f:
            f.write("".join(f"f{k}-{i}\n" for i in range(n)))
    # observed on MindSpore 2.10 CPU: file i to worker i mod K, the workers in turn
    assert texts(ds.TextFileDataset(paths, shuffle=False, num_parallel_workers=2)) == [
        "f0-0", "f1-0", "f0-1", "f0-2", "f2-0", "f2-1"]
    assert texts(ds.TextFileDataset(paths, shuffle=False, num_parallel_workers=1)) == [
        "f0-0", "f0-1", "f0-2", "f1-0", "f2-0", "f2-1"]


@pytest.mark.parametrize("name, columns, first", [
    ("AGNewsDataset", ["index", "title", "description"], "test"),
    ("DBpediaDataset", ["class", "title", "content"], "test"),
    ("SogouNewsDataset", ["index", "title", "content"], "train"),
    ("YahooAnswersDataset", ["class", "title", "content", "answer"], "test"),
    ("AmazonReviewDataset", ["label", "title", "content"], "test")])
def test_csv_data_sets(tmp_path, name, columns, first):
    for split, off in (("train", 0), ("test", 5)):
        lines = [",".join(f'"{c}{i + off}"' for c in "abcd"[:len(columns)]) + "\n" for i in range(2)]
        (tmp_path / f"{split}.csv").write_text("".join(lines))
    cls = getattr(ds, name)
    train = cls(str(tmp_path), usage="train", shuffle=False)
    assert train.get_col_names() == columns  # observed
    assert [[a.tolist() for a in r] for r in rows(train)] == [[c + "0" for c in "abcd"[:len(columns)]],
                                                              [c + "1" for c in "abcd"[:len(columns)]]]
    order = [r[0].tolist() for r in rows(cls(str(tmp_path), shuffle=False, num_parallel_workers=2))]
    assert order == (["a5", "a0", "a6", "a1"] if first == "test" else ["a0", "a5", "a1", "a6"])  # observed
    with pytest.raises(ValueError, match="Input usage is not within the valid set"):
        cls(str(tmp_path), usage="valid")


def test_penn_treebank(tmp_path):
    for split in ("train", "valid", "test"):
        (tmp_path / f"ptb.{split}.txt").write_text(f" {split} one \n {split} two \n")
    train = ds.PennTreebankDataset(str(tmp_path), usage="train", shuffle=False)
    assert train.get_col_names() == ["text"] and texts(train) == [" train one ", " train two "]  # observed
    assert texts(ds.PennTreebankDataset(str(tmp_path), shuffle=False, num_parallel_workers=2)) == [
        " test one ", " train one ", " test two ", " train two ", " valid one ", " valid two "]


def test_imdb(tmp_path):
    for split in ("train", "test"):
        for label in ("pos", "neg"):
            os.makedirs(tmp_path / split / label)
            for i in range(2):
                (tmp_path / split / label / f"{i}_{7 + i}.txt").write_text(f"{split} {label} review {i}<br />x")
    os.makedirs(tmp_path / "train" / "unsup")
    (tmp_path / "train" / "unsup" / "0_0.txt").write_text("unsup")
    train = ds.IMDBDataset(str(tmp_path), usage="train", shuffle=False)
    assert train.get_col_names() == ["text", "label"]
    got = rows(train)  # observed: pos (1) then neg (0), sorted files, text as it is, int32 labels
    assert [(r[0].tolist(), int(r[1])) for r in got] == [
        ("train pos review 0<br />x", 1), ("train pos review 1<br />x", 1), ("train neg review 0<br />x", 0),
        ("train neg review 1<br />x", 0)]
    assert got[0][1].dtype == np.int32
    assert [r[0].tolist() for r in rows(ds.IMDBDataset(str(tmp_path), shuffle=False))][3:5] == [
        "train neg review 1<br />x", "test pos review 0<br />x"]


def test_iter_sampler():
    class Indices:
        def __iter__(self):
            return iter([3, 1, 1])

    data = lambda sampler: ds.NumpySlicesDataset({"x": np.arange(5) * 10}, sampler=sampler)  # noqa: E731
    assert [int(r[0]) for r in rows(data(ds.IterSampler(Indices())))] == [30, 10, 10]  # observed
    assert [int(r[0]) for r in rows(data(ds.IterSampler(Indices(), num_samples=2)))] == [30, 10]
    assert data(ds.IterSampler(Indices())).get_dataset_size() == 3
    assert [int(r[0]) for r in rows(data(ds.IterSampler([4, 0])))] == [40, 0]


def test_conll2000_and_udpos(tmp_path):
    c = tmp_path / "conll"
    c.mkdir()
    (c / "train.txt").write_text("Confidence NN B-NP\nin IN B-PP\n\nChancellor NNP O\n")
    (c / "test.txt").write_text("Rockwell NNP B-NP\n\n")
    train = ds.CoNLL2000Dataset(str(c), usage="train", shuffle=False)
    assert train.get_col_names() == ["word", "pos_tag", "chunk_tag"]
    # observed on MindSpore 2.10 CPU: a sentence without a blank line after it is left out
    assert [[a.tolist() for a in r] for r in rows(train)] == [[["Confidence", "in"], ["NN", "IN"], ["B-NP", "B-PP"]]]
    assert [r[0].tolist() for r in rows(ds.CoNLL2000Dataset(str(c), shuffle=False, num_parallel_workers=2))] == [
        ["Rockwell"], ["Confidence", "in"]]
    u = tmp_path / "udpos"
    u.mkdir()
    for split in ("train", "dev", "test"):
        (u / f"en-ud-tag.v2.{split}.txt").write_text(f"Al\tPROPN\tNNP\n-\tPUNCT\tHYPH\n\n{split}\tNOUN\tNN\n")
    train = ds.UDPOSDataset(str(u), usage="train", shuffle=False)
    assert train.get_col_names() == ["word", "universal", "stanford"]
    assert [[a.tolist() for a in r] for r in rows(train)] == [[["Al", "-"], ["PROPN", "PUNCT"], ["NNP", "HYPH"]]]
    assert ds.UDPOSDataset(str(u), shuffle=False).get_dataset_size() == 3
    with pytest.raises(ValueError, match=r"Input usage is not within the valid set of \['train', 'valid', 'test', "):
        ds.UDPOSDataset(str(u), usage="dev")
