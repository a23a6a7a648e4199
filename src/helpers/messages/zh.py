"""The course's printed sentences in Chinese: the names and placeholders of helpers.messages.en."""

MESSAGES = {
    # helpers.show.compare_guess
    "guess.none": "还没有写下猜测：在上面的单元里写一个并运行它，然后再运行这个单元。",
    "guess.words": "你猜的是 {guess}；运行结果：{measured}。",
    "guess.choice": "你猜的是 {guess}，运行给出 {measured}：{verdict}。",
    "guess.right": "猜对了",
    "guess.wrong": "这次没猜中",
    "guess.close": "你猜的是 {guess}，运行测得 {measured}：很接近。",
    "guess.high": "你猜的是 {guess}，运行测得 {measured}：偏高。",
    "guess.low": "你猜的是 {guess}，运行测得 {measured}：偏低。",
    "guess.high_by": "你猜的是 {guess}，运行测得 {measured}：偏高，约为实测值的 {ratio:.0f} 倍。",
    "guess.low_by": "你猜的是 {guess}，运行测得 {measured}：偏低，约为实测值的 1/{ratio:.0f}。",
    # helpers.course.homework.checks
    "check.head": "{exercise}：{total} 项检查通过了 {passed} 项",
    "check.well_done": "，做得好！",
    "check.mark.passed": "通过",
    "check.mark.failed": "失败",
    "check.mark.error": "出错",
    "check.mark.not answered": "待答",
    "check.mark.other": "跳过",
    "check.false": "条件为 False",
    "check.not_answered": (
        "还没有作答：把 EXERCISE {exercise} 单元中的 `{placeholder}` 换成你的答案，然后运行该单元"
    ),
    "check.name_error": "NameError：{error}。你运行过 EXERCISE {exercise} 单元及它上面的单元了吗？",
    "check.bad_id": "{exercise!r} 不是练习编号；编号的样子是 'day00.device'。",
    "check.unknown": (
        "{path} 中没有练习 {exercise!r}。它的练习有：{known}。如果你删除了它的 TEST 单元，"
        "请从课程仓库恢复这个 notebook 的测试单元。"
    ),
    # days 0-4, 6 and 7: the lesson modules' findings and verdicts (one block per module)
    # day 5: loops, claims, compiled and the day's conclusions
    # receipts: a GPU's figures beside this machine's (helpers.receipts)
    # day 8: distributed, ranks, ddp_train and the day's conclusions
}

WORDS = {
    # the units code passes to compare_guess(..., what)
    "parameters": "个参数",
    "percent": "%",
    "physical cores": "个物理核心",
    "pre-hook calls": "次前置钩子调用",
    "medians": "个中位数",
    "rows": "行",
    "threads": "个线程",
}
