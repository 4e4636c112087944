import pytest
from __pkg__.jobqueue import JobQueue
from __pkg__.jobs import __Job__
#@test visible
def test_queue_runs_due_jobs_by_priority():
    queue = JobQueue()
    for name, priority, run_at in (("a", 5, 0.0), ("b", 1, 0.0), ("c", 0, 2.0)):
        queue.push(__Job__(name, priority=priority, run_at=run_at, id=name))
    assert queue.pop_due(0.0).id == "b"
    assert queue.pop_due(0.0).id == "a"
    assert queue.pop_due(0.0) is None
    assert queue.pop_due(5.0).id == "c"
    assert len(queue) == 0
#@test visible
def test_queue_keeps_order_within_a_priority():
    queue = JobQueue()
    for name in ("first", "second", "third"):
        queue.push(__Job__(name, priority=3, id=name))
    assert [queue.pop_due(0.0).id for _ in range(3)] == ["first", "second", "third"]
#@test
def test_queue_next_time_and_due():
    queue = JobQueue()
    assert queue.next_time() is None
    queue.push(__Job__("x", run_at=3.0, id="x"))
    queue.push(__Job__("y", run_at=1.0, id="y"))
    assert queue.next_time() == 1.0
    assert queue.due(2.0) == 1
    assert queue.next_time() == 1.0
    assert queue.pop_due(2.0).id == "y"
    assert queue.next_time() == 3.0
    assert len(queue) == 1
#@test
def test_queue_ids_in_running_order():
    queue = JobQueue()
    for name, priority, run_at in (("late-urgent", 0, 9.0), ("normal", 5, 0.0), ("urgent", 0, 0.0)):
        queue.push(__Job__(name, priority=priority, run_at=run_at, id=name))
    queue.due(0.0)
    assert queue.ids() == ["late-urgent", "urgent", "normal"]
#@test
def test_queue_needs_job_ids():
    with pytest.raises(ValueError):
        JobQueue().push(__Job__("nameless"))
#@test
def test_retried_job_keeps_its_place():
    queue = JobQueue()
    queue.push(__Job__("a", priority=1, id="a"))
    job = queue.pop_due(0.0)
    queue.push(__Job__("b", priority=1, id="b"))
    queue.push(job)
    assert [queue.pop_due(0.0).id, queue.pop_due(0.0).id] == ["a", "b"]
#@test needs=cancel
def test_queue_remove():
    queue = JobQueue()
    queue.push(__Job__("a", id="a"))
    queue.push(__Job__("b", id="b", run_at=4.0))
    queue.due(0.0)
    assert ("a" in queue, "b" in queue, "c" in queue) == (True, True, False)
    assert queue.remove("a") is True
    assert queue.remove("a") is False
    assert queue.remove("b") is True
    assert (len(queue), queue.pop_due(10.0)) == (0, None)

