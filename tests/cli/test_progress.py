"""Progress off a terminal: a line per task at most every few seconds, one at the end; judges
count units from their transcript."""

from cardlab.progress import CountingTranscript, LineProgress


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_lines_come_at_most_every_few_seconds_and_at_the_end():
    clock, said = Clock(), []
    with LineProgress(said.append, every=5.0, clock=clock) as bar:
        task = bar.add_task("sweep", total=100)
        for _ in range(99):
            clock.now += 0.25  # 99 units over 24.75 s: lines at 5, 10, 15, 20 s
            bar.advance(task)
        assert len(said) == 4 and said[0].startswith("sweep: 20/100 (20%), 4/s, 5 s")
        clock.now += 0.25
        bar.advance(task)
    assert len(said) == 5 and said[-1].endswith("done")


def test_an_unfinished_task_says_where_it_stopped_when_the_block_ends():
    clock, said = Clock(), []
    with LineProgress(said.append, every=5.0, clock=clock) as bar:
        task = bar.add_task("match", total=10)
        clock.now = 1.0
        bar.advance(task, 3)
    assert said == ["match: 3/10 (30%), 3/s, 1 s, ~2 s left"]


def test_counting_transcript_ticks_per_result_and_keeps_lines_only_when_asked():
    ticks = []
    kept = CountingTranscript(lambda: ticks.append(1), marker="> RESULT", keep=True)
    kept.extend(["> STATE 1", "> RESULT 5"])
    kept.append("< ACTION CHECK")
    dropped = CountingTranscript(lambda: ticks.append(1), marker="> RESULT", keep=False)
    dropped.extend(["> RESULT -3", "> RESULT 2"])
    dropped.append("< x")
    assert len(ticks) == 3 and kept == ["> STATE 1", "> RESULT 5", "< ACTION CHECK"] and dropped == []
