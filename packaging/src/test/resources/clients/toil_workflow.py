"""A Toil workflow: two children (each its own Slurm job) and a follow-on that adds their results."""
from toil.common import Toil
from toil.job import Job


def square(job, x):
    return x * x


def total(job, a, b):
    return a + b


def root(job):
    a = job.addChildJobFn(square, 3, cores=1, memory="100M", disk="10M")
    b = job.addChildJobFn(square, 4, cores=1, memory="100M", disk="10M")
    return job.addFollowOnJobFn(total, a.rv(), b.rv(), cores=1, memory="100M", disk="10M").rv()


if __name__ == "__main__":
    options = Job.Runner.getDefaultArgumentParser().parse_args()
    with Toil(options) as toil:
        result = toil.start(Job.wrapJobFn(root, cores=1, memory="100M", disk="10M"))
    print("RESULT", result)
