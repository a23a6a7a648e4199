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
    # helpers.stats
    "stats.interval": "{value}（{confidence:.0%} 置信区间 {low} 至 {high}）",
    "stats.zero.excluded": "区间不含零",
    "stats.zero.included": "区间包含零，所以这 {n} 次测量无法把它与零区分开",
    "stats.difference": "{a} 减 {b} 为 {value}：{zero}。",
    "stats.difference.larger": "{a} 减 {b} 为 {value}：{zero}，所以 {larger} 大于 {smaller}。",
    "stats.rows.head": "共 {n} 行，只有 {a} 答对的有 {a_only} 行，只有 {b} 答对的有 {b_only} 行",
    "stats.rows.same": "{head}：两者答对的行完全相同，没有什么能把它们区分开。",
    "stats.rows.better": "{head}：差距大到不像是运气（精确检验，p = {p:.3f}）：**{better}** 更好。",
    "stats.rows.luck": (
        "{head}：这样的差距可能只是运气（精确检验，p = {p:.2f}），这些行区分不出两者，"
        "应当保留更简单的模型。"
    ),
    "stats.price": "{what}的代价是 {value}：{zero}",
    "stats.price.noise": (
        "{price}。这些运行无法把代价与噪声区分开：在测量范围内它累计仍可能达到 {most_ms:.1f} ms，"
        "而 a = {a_s:.3f} s。"
    ),
    "stats.price.negative": (
        "{price}，但它是负的：这不是真实的开销，而是运行中的漂移或顺序效应。"
        "请增加重复次数后重新运行。"
    ),
    "stats.price.above_noise": (
        "{price}；在测量范围内它使时间改变 {effect_ms:.1f} ms，"
        "大于运行间的噪声（{noise_ms:.1f} ms）。"
    ),
    "stats.price.below_noise": (
        "{price}；在测量范围内它使时间改变 {effect_ms:.1f} ms，"
        "小于运行间的噪声（{noise_ms:.1f} ms）。"
    ),
    "stats.bend": "测量范围内的弯曲为 {value}",
    "stats.bend.sharpness": (
        "这些运行（以 {power:.0%} 的概率）能发现 {bend_ms:.1f} ms 或更大的弯曲，"
        "以及 {slope_us:.2f} µs 或更高的{what}代价"
    ),
    "stats.line.straight": "直线成立：{bend}；{zero}。但这并不证明它是直的：{sharpness}。",
    "stats.line.upwards": (
        "直线不适用：{bend}；{zero}，所以时间向上弯曲（{what}的开销随数量增加而上升）。"
        "作为参照：{sharpness}。"
    ),
    "stats.line.downwards": (
        "直线不适用：{bend}；{zero}，所以时间向下弯曲（{what}的开销随数量增加而下降）。"
        "作为参照：{sharpness}。"
    ),
    # helpers.device_notes
    "device_notes.mismatch.cuda_words": (
        "在 NVIDIA GPU 上，它以 `{error}` 开头，并写出两个设备（`cuda:0`、`cpu`）"
    ),
    "device_notes.mismatch.mps_words": (
        "在 Mac 的 GPU 上（MPS，PyTorch 2.4 及以后），它写作 `{error}`"
    ),
    "device_notes.mismatch.on_cuda": "这是 CUDA 的措辞；{mps}。",
    "device_notes.mismatch.on_mps": "这是 MPS 的措辞；{cuda}。",
    "device_notes.mismatch.other": (
        "这是 `{device}` 设备上的报错形式。同样的错误在 GPU 上也会引发 `RuntimeError`：{cuda}；"
        "{mps}。"
    ),
    "device_notes.readback.cuda": (
        "在 CUDA 上，以 `non_blocking=True` 拷回 CPU 时，调用会在数据到达之前就返回："
        "读取之前先用 `torch.cuda.synchronize()` 或事件的 `synchronize()` 等待。"
    ),
    "device_notes.readback.mps": (
        "在 MPS 上也一样，`non_blocking=True` 拷回 CPU 可能在数据到达之前就返回"
        "（pytorch/pytorch#140296）：读取之前先调用 `torch.mps.synchronize()`。"
    ),
    "device_notes.readback.other": (
        "这里的张量本来就在 {device} 上，所以 `.to('cpu')` 直接返回张量本身，没有什么需要等待。"
        "有 GPU 时，读取 `non_blocking=True` 的拷贝之前要先等待：NVIDIA GPU 上用 "
        "`torch.cuda.synchronize()`，Mac 上用 `torch.mps.synchronize()`。"
    ),
    "device_notes.moved.same": (
        "`.to({target})` 之后，权重仍是同一个 Parameter 对象，数值被移进了它里面"
        "（新旧张量种类兼容时 PyTorch 会这样做，CPU 与 CUDA 张量就是如此），"
        "所以移动之前创建的优化器仍然持有它。移到 `meta` 则会生成新的 Parameter，"
        "因此稳妥的习惯是先移动模型，再创建优化器。"
    ),
    "device_notes.moved.new": (
        "`.to({target})` 之后，权重是一个新的 Parameter 对象：PyTorch 无法把数值移进旧对象"
        "（CPU 张量与 `{target}` 张量种类不兼容），所以移动之前创建的优化器会继续更新那些"
        "已被丢弃的旧张量。先移动模型，再创建优化器。"
    ),
    # helpers.preprocessing
    "preprocessing.error.no_values": "列 {columns} 在训练行中一个值都没有：无从学习填补值。",
    "preprocessing.error.text": (
        "列 {column!r} 应当只含数字，却含有文本，例如 {examples}。缺失值要写成 NaN（读取 CSV "
        "时传入 na_values='?'）。"
    ),
    "preprocessing.error.missing": (
        "缺少必需的列：{missing}。HeartPreprocessor 需要全部 13 个特征：{features}。"
    ),
    "preprocessing.error.empty": "这个 DataFrame 是空的：没有可以预处理的行。",
    "preprocessing.error.not_frame": (
        "HeartPreprocessor 需要一个带列名的 pandas DataFrame，收到的却是 {kind}。请使用 "
        "helpers.data.load_heart() 返回的 DataFrame。"
    ),
    "preprocessing.error.categorical": "categorical 中有些列不是特征：{unknown}。",
    "preprocessing.error.strategy": "strategy={strategy!r} 不是 {choices} 之一。",
    "preprocessing.error.not_fitted": (
        "这个 HeartPreprocessor 还没有拟合：先在训练行上调用它，prep(X_train, is_train=True)，"
        "然后才能调用 prep(X_test, is_train=False)。"
    ),
    "preprocessing.code.up_and_down": (
        "{codes}：患病率随编码忽高忽低，编码上的单个权重无法跟上它；"
        "独热编码让每个编码都有自己的列和权重。"
    ),
    "preprocessing.code.rises": (
        "{codes}：患病率随编码上升，所以一个权重可以跟上它的方向，但前提是把编码当作等间距的数量。"
        "它们其实是标签：编码之间的间隔没有意义，所以每个编码照样各有自己的列和权重。"
    ),
    "preprocessing.code.falls": (
        "{codes}：患病率随编码下降，所以一个权重可以跟上它的方向，但前提是把编码当作等间距的数量。"
        "它们其实是标签：编码之间的间隔没有意义，所以每个编码照样各有自己的列和权重。"
    ),
    # helpers.widgets
    "widgets.run": "运行",
    "widgets.run.tooltip": "用这些设置运行实验",
    # helpers.live
    "live.source.nvml": "NVIDIA GPU，通过 NVML 读取",
    "live.source.mps": "没有 NVIDIA 驱动：显示 Apple GPU 的显存（MPS）和本进程的 CPU 占用",
    "live.source.cpu": "没有找到 GPU 或驱动：改为显示本进程的 CPU 占用和内存",
    "live.bar.cpu": "CPU %",
    "live.bar.memory": "内存 (GB)",
    "live.bar.busy": "{gpu} 忙碌 %",
    "live.bar.gpu_memory": "{gpu} 显存 (GB)",
    "live.head": "<b>实时视图</b>：{source}",
    "live.reading.of": "{value:.1f} {unit}，共 {top:.1f}",
    "live.summary.readings": "{seconds:.1f} s 内读取 {n} 次",
    "live.summary.busy": "{gpu} 平均忙碌 {percent:.0f}%",
    "live.summary.peak": "{what}峰值 {gb:.2f} GB",
    "live.summary.cpu": "进程 CPU 平均 {percent:.0f}%（100% = 占满一个 CPU）",
    # helpers.copies
    "copies.allocation.gpu": (
        "PyTorch 把释放的 GPU 显存留在缓存分配器里再次分发，所以最初几次运行之后，"
        "在 GPU 上新建缓冲区几乎不花时间；差别主要来自拷贝本身。"
    ),
    "copies.library.linux": (
        "Linux 的 C 库 glibc 把超过阈值的内存块（128 KiB，随着大块被释放最多升到 32 MiB）"
        "直接交给内核"
    ),
    "copies.library.other": "C 库把大块内存直接交给操作系统",
    "copies.allocation.cpu": (
        "在 CPU 上，新的大缓冲区是全新的内存：{library}，对每个 {page_kib} KiB 页面的第一次写入"
        "都会让拷贝因缺页中断而停顿。"
    ),
    "copies.bytes": "{n:,} 字节",
    "copies.fixed": (
        "**{name}**：没有一次拷贝短于 {fixed_us:.1f} µs（{quickest:,} 字节的那次），"
        "这是固定开销的上限；"
        "吞吐量峰值为 {rate:.1f} GB/s（在 {at}时）。按这个速率，固定开销的时间内能搬运 "
        "{balance_kib:,.0f} KiB：远小于这个大小的拷贝，时间大多花在固定开销上。"
    ),
    "copies.pieces": (
        "把 {large}拆成 {pieces:,} 次 {small:,} 字节的拷贝，耗时是一次拷贝（{one_ms:,.1f} ms）的 "
        "**{ratio:.1f}×**；按这里最好的大小 {best:,} 字节分块，需要 {best_ms:,.1f} ms。"
    ),
    "copies.pieces.best": (
        "把 {large}拆成 {pieces:,} 次 {small:,} 字节的拷贝，耗时是一次拷贝（{one_ms:,.1f} ms）的 "
        "**{ratio:.1f}×**，一次拷贝就是这里最好的大小。"
    ),
    "copies.above.falls": (
        "超过 {at}之后，吞吐量在最大尺寸处降到 {rate:.1f} GB/s（峰值的 {share:.0%}）。"
    ),
    "copies.above.stays": (
        "超过 {at}之后，直到最大尺寸吞吐量都保持在峰值的 20 % 以内（{rate:.1f} GB/s）。"
    ),
    "copies.allocation": (
        "在 {size}时，自己分配缓冲区的拷贝（*{alloc}*）耗时 **{alloc_ms:,.2f} ms**，"
        "拷进已有缓冲区的（*{plain}*）耗时 **{plain_ms:,.2f} ms**（{ratio:.1f}×）。{note}"
    ),
    # helpers.memory
    "memory.log.fits": "批量 {batch}：放得下",
    "memory.log.out": "批量 {batch}：内存不足（{error}）",
    "memory.autocast.ampere": "计算能力 {cc}：张量核心支持 bfloat16（从 8.0 起）",
    "memory.autocast.volta": (
        "计算能力 {cc}：张量核心支持 float16 但不支持 bfloat16（需要 8.0），"
        "而 float16 的数值范围窄，需要 GradScaler"
    ),
    "memory.autocast.older": "计算能力 {cc}：没有张量核心；float16 只能把显存减半",
    "memory.autocast.mps": "Apple GPU：float16，并用 GradScaler 应对它较窄的数值范围",
    "memory.autocast.cpu": "CPU：bfloat16（只有支持 AVX-512 BF16 或 AMX 时才快）",
    "memory.sizes": "{whole_mb:,.0f} MB 对 {micro_mb:,.0f} MB",
    "memory.accumulation.less": (
        "{parts} 个微批次的峰值内存比整批低：整批是它的 {ratio:.1f}×（{sizes}）。"
    ),
    "memory.accumulation.cuda": (
        "微批次的峰值并没有更低（{sizes}）：在这个批量大小下，决定峰值的是权重、梯度和优化器状态，"
        "而不是激活值。"
    ),
    "memory.accumulation.cpu": (
        "微批次的峰值读数并没有更低（{sizes}）。在 CPU 上，这个数字是进程的常驻内存，"
        "而不是存活的张量：C 分配器会留下一些释放的内存块以便复用，另一些则归还系统，"
        "所以这个数字既反映激活值，也反映分配器的习惯。CUDA 统计的是存活的张量，"
        "在那里更小的激活值会显现出来。"
    ),
    # helpers.many_models
    "many_models.batching.many": (
        "{k} 个模型：一个批量化的步骤训练它们的速度是课程循环逐个训练的 {ratio:.1f}×"
        "（{n} 轮比值的几何平均，95% 区间 {low:.1f}× 至 {high:.1f}×）"
    ),
    "many_models.batching.one": (
        "{k} 个模型：一个批量化的步骤训练它的速度是课程循环的 {ratio:.1f}×"
        "（{n} 轮比值的几何平均，95% 区间 {low:.1f}× 至 {high:.1f}×）"
    ),
    "many_models.batching.noise": "{head}：区间包含 1×，这些轮次区分不出差别与噪声。",
    "many_models.batching.pays": "{head}：批量化是值得的。",
    "many_models.batching.slower": (
        "{head}：批量化的步骤在这里更慢（它自身的开销，即 vmap 的簿记工作，超过了它共享的部分）。"
    ),
    "many_models.sharing": (
        "{many} 个副本的一个批量化步骤耗时是 {few} 个副本时的 {grew:.1f}×（中位数），"
        "而计算量是 {work:g}×"
    ),
    "many_models.sharing.fixed": "{head}：这一步主要是固定部分，由各副本共享。",
    "many_models.sharing.arithmetic": "{head}：时间随计算量增长，所以这里堆叠几乎没有共享什么。",
    "many_models.sharing.between": "{head}：这一步有一部分被共享，另一部分随副本数增长。",
    # helpers.utilisation
    "utilisation.cost": (
        "{habit} 耗时是改正后写法的 {times}（{n} 轮比值的中位数）；"
        "习惯写法减改正写法：{difference}：{zero}"
    ),
    "utilisation.cost.noise": "{said}；在这些轮次的噪声之上看不出开销。",
    "utilisation.cost.real": "{said}，所以是真实的开销。",
    "utilisation.cost.faster": (
        "{said}，但习惯写法反而更快：没有哪种习惯会因为多花功夫而省时间，"
        "所以请检查各轮中的顺序效应或缓存效应。"
    ),
    "utilisation.tuning.only": "只有 {name} 达到了目标",
    "utilisation.tuning.neither": "两者都没有达到目标",
    "utilisation.tuning.same": "{a} 和 {b} 都需要 {epochs} 个轮次",
    "utilisation.tuning.fewer": "{a} 需要 {ea} 个轮次，{b} 需要 {eb} 个：轮次少 {factor:.1f}x",
    "utilisation.tuning.more": "{a} 需要 {ea} 个轮次，{b} 需要 {eb} 个：轮次多 {factor:.1f}x",
    "utilisation.tuning.slower": "{steps}；每个轮次的时间也有可测量的差别。",
    "utilisation.tuning.as_busy": (
        "{steps}；每个轮次的时间没有可测量的变化，所以每一步让设备保持同样忙碌。"
    ),
    "utilisation.busy.kernel": (
        "{name}：{busy:.0%} 的时间有内核在运行，算力用到实测峰值的 {mfu:.2%}"
    ),
    "utilisation.busy.operator": (
        "{name}：{busy:.0%} 的时间有算子在计算，算力用到实测峰值的 {mfu:.2%}"
    ),
    "utilisation.busy.above_peak": (
        "{head}：超过了峰值，而一步不可能做到：峰值的测量被拖慢了（机器很忙）。两者都请重新运行。"
    ),
    "utilisation.busy.overhead": "{head}：主要是操作之间的开销（Python、分发、启动）。",
    "utilisation.busy.idle_units": (
        "{head}：设备很忙，但计算单元大多空闲（每个小操作都要付出自己的开销）。"
    ),
    "utilisation.busy.arithmetic": "{head}：设备很忙，而且大部分时间是真正的计算。",
    # helpers.takeoff
    "takeoff.shape.falls": (
        "**{name}**：每步时间从 {before_rows:,.0f} 行时的 {before_ms:.2f} ms 降到 "
        "{after_rows:,.0f} 行时的 {after_ms:.2f} ms：更多的工作不可能花更少的时间，"
        "所以是别的东西（另一个程序、机器的停顿）拖慢了较小的那个点。请重新扫描后再解读这条曲线。"
    ),
    "takeoff.shape.flat": (
        "**{name}**：在测量的所有大小上都是平的：每步固定开销 {overhead_ms:.2f} ms，"
        "直到 {rows:,.0f} 行。"
    ),
    "takeoff.shape.flat_then_rising": (
        "**{name}**：先平后升：先是每步 {overhead_ms:.2f} ms 的固定开销，然后是工作量。"
    ),
    "takeoff.shape.rising": (
        "**{name}**：从测量的最小大小（{rows:,.0f} 行）起就在上升：在那里工作量已经超过了固定开销。"
    ),
    # helpers.roofline
    "roofline.above.bandwidth": (
        "高于带宽屋顶（{roof}），所以那个屋顶对它来说太低了："
        "这个负载搬运字节的速度比测量屋顶的拷贝更快"
        "（数据从离核心更近的缓存中复用，或者循环的向量化比拷贝更好）。把这个点看作在屋顶上，"
        "而不是超出它"
    ),
    "roofline.above.flat": (
        "高于平屋顶（{roof}），所以测得的峰值对它来说太低了：它的计算比测量峰值的矩阵乘法更快"
        "（另一种形状，或更多线程）。把这个点看作在屋顶上，而不是超出它"
    ),
    "roofline.reach": "达到屋顶（{roof}）在该强度下允许值的 {reach:.1%}",
    "roofline.head": (
        "**{name}**：每字节 {intensity:.3g} 次浮点运算，{gflops:.3g} GFLOP/s，{where}。"
        "在它的 {seconds} 中，按峰值计算需要 {arithmetic}，内存传输需要 {memory}"
    ),
    "roofline.overhead": (
        "{head}：**{found}**，{rest:.1%} 的时间两者都不是："
        "是开销（Python、分发、启动、分配、等待）。"
    ),
    "roofline.compute": "{head}：**{found}**，大部分时间花在计算上。",
    "roofline.bandwidth": "{head}：**{found}**，大部分时间花在搬运字节上。",
    "roofline.roof": "{level}：拷贝 {size}",
    "roofline.roof.thread": "{level}：拷贝 {size}，{threads} 个线程",
    "roofline.roof.threads": "{level}：拷贝 {size}，{threads} 个线程",
    "roofline.plot.roof": "屋顶（{roof}）",
    "roofline.plot.point": "{name}（{found}）",
    "roofline.plot.x": "算术强度（每搬运一字节的浮点运算数，对数坐标）",
    "roofline.plot.y": "实际达到的 FLOP/s（对数坐标）",
    "roofline.plot.title": "屋顶线模型：峰值 {peak:.3g} GFLOP/s，带宽 {bandwidths} GB/s",
    # helpers.crossover
    "crossover.span": "课程所说的 {low:,.0f}-{high:,.0f}",
    "crossover.span.rows": "课程所说的 {low:,.0f}-{high:,.0f} 行",
    "crossover.never": (
        "与 {against} 相比，在测量到的 {largest:,.0f} 行以内 GPU 都不更快：这些曲线无法证实{span}。"
    ),
    "crossover.pays_off": "与 {against} 相比，GPU 从大约 {rows:,.0f} 行起开始划算",
    "crossover.already": "与 {against} 相比，GPU 在测量的最小大小（{rows:,.0f} 行）就已经更快",
    "crossover.far_below": "{where}：远低于{span}。",
    "crossover.below": "{where}：低于{span}，但在十倍以内。",
    "crossover.within": "{where}：在{span}之内。",
    "crossover.above": "{where}：高于{span}。",
    "crossover.bound.none": (
        "课程的 GPU 只在一个大小上测量过：{rows} 行，每个轮次 {step_ms:.2f} ms"
        "（整个循环除以轮次数）。GPU 的一步不会因为行数增加而变快，所以 GPU 在 {largest:,.0f} 行"
        "以下不可能划算：在测量的每个大小上，你的 CPU 的一步都比它快。"
    ),
    "crossover.bound": (
        "课程的 GPU 只在一个大小上测量过：{rows} 行，每个轮次 {step_ms:.2f} ms"
        "（整个循环除以轮次数）。GPU 的一步不会因为行数增加而变快，所以 GPU 在大约 {bound:,.0f} 行"
        "以下不可能划算，那里你的 CPU 的一步达到这个时间。"
    ),
    "crossover.bound.rules_out": "{head}仅凭这一点就排除了{span}：课程的估计在这里太低了。",
    "crossover.bound.none.below": "{head}这个下界低于{span}：它既不能证实也不能排除它。",
    "crossover.bound.within": (
        "{head}这个下界在{span}之内，所以它不排除这个范围。只有当 GPU 的一步在 {bound:,.0f} 行以内"
        "都保持 {rows} 行时的时间（对这么小的网络很可能，但没有测量），它才恰好在那里划算；"
        "一条 GPU 曲线（本机的，或在 GPU 上测得的参考）能把这个下界变成测量结果。"
    ),
    "crossover.bound.below": (
        "{head}这个下界低于{span}，所以它不排除这个范围。只有当 GPU 的一步在 {bound:,.0f} 行以内"
        "都保持 {rows} 行时的时间（对这么小的网络很可能，但没有测量），它才恰好在那里划算；"
        "一条 GPU 曲线（本机的，或在 GPU 上测得的参考）能把这个下界变成测量结果。"
    ),
    # helpers.topology 与 helpers.gpu
    "topology.smt.unknown": "在这台机器上读不出每个核心运行几个硬件线程。",
    "topology.smt.part": "{cores} 个核心各运行 {threads} 个",
    "topology.smt.and": "、",
    "topology.smt.hybrid": (
        "各核心并不相同：{cores} 个核心中，{parts}硬件线程（混合架构 CPU，例如 Intel "
        "的性能核与能效核），"
        "所以逻辑 CPU 数除以核心数并不是任何一个核心的线程数。"
    ),
    "topology.smt.one": "这里每个核心运行一个硬件线程，所以逻辑 CPU 与核心是一回事。",
    "topology.smt.many": (
        "每个核心运行 {threads} 个硬件线程（同时多线程，即“超线程”），"
        "所以 {threads} 个逻辑 CPU 共享一个核心的计算单元。"
    ),
    "gpu.tier.data_centre": "名称中含有 {line!r}，这是数据中心产品线",
    "gpu.tier.workstation": "名称中含有 {line!r}，这是工作站产品线",
    "gpu.tier.consumer": "名称中含有 {line!r}，这是消费级（游戏）产品线",
    "gpu.tier.large": "名称未知；{memory_gb:.0f} GB 显存是数据中心级的容量",
    "gpu.tier.small": "名称未知；{memory_gb:.0f} GB 显存是消费级的容量（推测）",
    # helpers.training
    "training.bar": "训练",
    # helpers.training
    "training.same_losses": "上面的循环与 `train` 记录的损失相同。",
    "training.different_losses": "上面的循环与 `train` 记录的损失**不同**。",
    "training.trained": (
        "在 **{device}** 上训练了 **{epochs} 个轮次**，耗时 **{seconds:.2f} s**"
        "（每个轮次 {per_epoch_us:.0f} µs）。"
    ),
    "training.loss": (
        "损失从 **{first:.3f}** 降到 **{final:.3f}**；在 {tested} 朵测试花上的准确率是 "
        "**{accuracy:.0%}**（瞎猜是 33%）。"
    ),
    "preprocessing.base.disease": (
        "**{rate:.0%}** 的患者有心脏病，所以总是猜“有病”的正确率是 {right:.0%}："
        "下面的每个模型都必须超过它。"
    ),
    "preprocessing.base.none": (
        "**{rate:.0%}** 的患者有心脏病，所以总是猜“没病”的正确率是 {right:.0%}："
        "下面的每个模型都必须超过它。"
    ),
    # 第 4 天的其他发现
    "day04.panel.one_hot": "独热编码",
    "day04.panel.scale": "标准化",
    "day04.panel.fill": "填补方式",
    "day04.panel.title": "预处理的选择与交叉验证得分",
    "day04.reordered": "列换一种顺序，结果相同：{same} | 被忽略的列：{ignored}",
    "day04.pickled": "经过 pickle 序列化的流水线预测结果不变：{same}",
    "day04.output_columns": "输出的列：{columns}",
    "day04.same_transform": "先 fit 再 transform 与带 is_train 调用的结果相同：{same}",
    "day04.before_fitting": "拟合之前：{error}",
    "day04.missing_in": "`{column}` 中 {n} 个",
    "day04.patients": "**{n} 位患者**，**{missing} 个缺失值**（{where}）。",
    "day04.split": "训练集：{train} 位患者，测试集：{test} 位",
    "day04.bug1": (
        "**缺陷 1：** 调用返回的是形状为 {shape} 的 `{kind}`，而不是类型注解承诺的 DataFrame："
        "列名没了，所以 `out['age']` 会失败，也没有任何东西说明 {columns} 列中哪一列是哪一列。"
    ),
    "day04.bug2": (
        "**缺陷 2：** 忘记传的标志让它悄悄地在测试行上重新拟合：13 个中位数中有 {changed} 个、"
        "13 个均值中有 {moved} 个变了，测试行现在每一列的均值最多只有 {largest:.1e}，"
        "就像训练数据一样。"
        "没有任何警告：测试分数现在是在用测试行自己的统计量缩放过的数据上算出来的。"
    ),
    "day04.ca": (
        "`ca`，即看到的主要血管数（0-3），是真正的计数：它的患病率随计数{trend}，所以它保持为数值。"
    ),
    "day04.auc": (
        "{folds} 折上的 ROC AUC：把编码当作数值缩放 **{codes:.3f}**，独热编码 **{onehot:.3f}**。"
    ),
    "day04.choice": (
        "fill={strategy!r}，scale={scale}，one-hot={one_hot}：ROC AUC **{auc:.4f}**，"
        "默认值为 {default:.4f}，在同样的 {folds} 折上。"
    ),
    "day04.leak": "ROC AUC：有泄露的做法 **{leaky:.4f}**，诚实的做法 **{honest:.4f}**。",
    "day04.gap": (
        "在 {tested} 位测试患者上，一位患者占准确率的 **{one:.1%}**，所以两者之间 "
        "{gap:+.1f} 个百分点的准确率差距相当于 {patients:.0f} 位患者。{verdict}"
    ),
    # 第 3 天的发现
    "day03.own_call": "nn.Linear 自己定义了 __call__ 吗？{defines}",
    "day03.mro": "它的类（从最具体到最一般）：{classes}",
    "day03.parameter_shapes": "参数的形状：{shapes}",
    "day03.registered": "注册的子模块：{modules}",
    "day03.running_means": "tick 被调用了 {calls} 次；累计均值：{means}",
    "day03.same": "输出相同：{outputs}；梯度相同：{grads}",
    "day03.through_call": "通过 __call__：{calls} 次前置钩子调用，输出形状 {shapes}",
    "day03.after_forward": (
        "tiny.forward(x) 之后：{calls}（各层的钩子运行了：forward 调用了 self.fc1(x)）"
    ),
    "day03.skipped": "tiny.fc1.forward(x) 运行时没有触发它的钩子：{skipped}",
    "day03.removed": "handle.remove() 之后：没有钩子运行",
    "day03.not_removed": "handle.remove() 之后：钩子仍然运行了",
    "day03.call_impl": (
        "所以 `model.fc1(x)` 运行的是 **{runs}**：`nn.Module.__call__` 就是这个函数的另一个名字。"
        "模块被编译过时，它调用 `torch.compile` 版本的模块，否则调用 `Module._call_impl`，"
        "后者运行钩子和 `forward`，和我们的 `__call__` 一样。"
    ),
    "day03.optimiser_holds": "优化器持有的权重在 **{held}** 上；模型的权重在 **{target}** 上。",
    "day03.hooks_fired": "通过 `model(x)` 调用一次，触发了 **{hooks}** 个钩子（每层一个）。",
    "day03.records": (
        "`model.forward(x)` 之后有 **{records}** 条记录：内部的各层仍然通过自己的 `__call__` 运行，"
        "因为 `forward` 调用的是 `self.fc1(x)`。"
    ),
    "day03.outer_hook": "模型本身上的钩子在 2 次前向传播中触发了 {fired} 次",
    "gpu.memory": (
        "{name}：{n:,} 字节，即 {gb:.1f} GB（10^9 字节，这里表格用的单位）或 {gib:.1f} GiB（2^30 "
        "字节）。"
    ),
    "gpu.found.mps": "找到了 **Apple GPU（MPS）**：",
    "gpu.found.none": "**这里没有 GPU**（没有 CUDA、ROCm 或 MPS 设备）：课程在 CPU 上运行。",
    "gpu.found.none.table": "下表显示同样的读数对一些知名显卡会是什么样子。",
    # 第 1 天的发现
    "day01.panel.title": "观察你选择的一个工作负载",
    "day01.panel.size": "矩阵大小",
    "day01.panel.seconds": "秒数",
    "day01.cpu": (
        "CPU：**{name}**（{microarchitecture}，{architecture}），有 **{cores} 个物理核心**和 "
        "**{logical_cpus} 个逻辑 CPU**。"
    ),
    "day01.usable": (
        "本进程可以使用其中的 **{usable}** 个（CPU 亲和性和容器限制都算在内；"
        "`os.cpu_count()` 对两者都一无所知）。内存：{total} GB 中可用 {available} GB。"
    ),
    "day01.none_found": "未找到",
    "day01.vector": "向量扩展：**{extensions}**。PyTorch 在这里的 CPU 能力级别：**{capability}**。",
    "day01.card_80": "一块 80 GiB 的显卡",
    "day01.units": (
        "显存有两种单位。{note} 产品名中的“80 GB”用的是二进制单位（GiB），"
        "而且部分显存可能被保留（ECC），所以 PyTorch 报告的总量可能比名称多，也可能少。"
    ),
    "day01.no_smi": "这里没有安装 nvidia-smi：这台机器没有 NVIDIA 驱动。",
    "day01.live": "**实时视图看到的：**{summary}。",
    "day01.products": (
        "{seconds:.2f} s 内完成了 {products} 次 {size}×{size} 矩阵乘法（等待设备完成后测量）："
        "**{rate:.1f} GFLOP/s**。"
    ),
    "day01.summary": "{summary}。",
    "copies.streams.overlap": (
        "先矩阵乘法再拷贝，一个流：**{one_ms:.2f} ms**；拷贝放在第二个流上：**{two_ms:.2f} ms**"
        "（{ratio:.2f}x）：这里拷贝与计算重叠了。"
    ),
    "copies.streams.serial": (
        "先矩阵乘法再拷贝，一个流：**{one_ms:.2f} ms**；拷贝放在第二个流上：**{two_ms:.2f} ms**"
        "（{ratio:.2f}x）：这里拷贝没有可测量的重叠。"
    ),
    "copies.streams.none": (
        "这里没有 CUDA GPU（{device}）：没有可以重叠的流，所以这台机器上无法演示；"
        "在 NVIDIA GPU 上，这个单元会比较一个流和两个流。"
    ),
    # 第 2 天的发现
    "day02.panel.size": "大小：2^n 字节",
    "day02.panel.title": "测量你选定大小的一次拷贝",
    "day02.devices": "这里的设备：**{devices}**。课程使用 **{device}**。",
    "day02.still": "执行 `x.to(target)` 而不赋值之后，`x` 仍在 **{device}** 上。",
    "day02.moved": "执行 `x = x.to(target)` 之后，`x` 在 **{device}** 上。",
    "day02.itself": (
        "为什么这个缺陷在笔记本电脑上藏得住：当张量已经在要去的地方时，`.to()` 返回张量本身"
        "（`same.to('cpu') is same` 为 **{itself}**）。"
    ),
    "day02.nothing_fails": "所以在只有 CPU 的机器上，忘记赋值什么也不会改变，也不会出错。",
    "day02.mismatch": "模型在 **{model}** 上，数据在 **{data}** 上。PyTorch 说：\n\n> {message}",
    "day02.fixed": "修好了：输出的形状是 {shape}，在 **{device}** 上。",
    "day02.ask": (
        "要知道模型在哪个设备上，问它的一个参数：`next(model.parameters()).device` -> {device}。"
    ),
    "day02.batches": "{batches} 个批次，最后一个有 {rows} 行，已移到 {device}",
    "day02.pieces": "{n:,} 块 {size:,} 字节",
    "day02.pool": "每次计时运行都从一个 {mib} MiB 的内存池中分块拷贝：{runs}。",
    "day02.again": "{variant}：{size:,} 字节，每次拷贝 {us:,.1f} µs",
    "day02.readback": "拷贝已完成且正确：{ok}",
    "day02.saved_on": "文件表明它的张量保存时在 **{where}** 上。",
    "day02.loaded": (
        "用 `map_location='cpu'` 时它们加载到 **{cpu}** 上；用 `map_location=device` 时加载到 "
        "**{device}** 上。"
    ),
    "day02.trained": (
        "**在 {device} 上训练 {epochs} 个轮次**，耗时 {seconds:.2f} s；损失 {first:.3f} -> "
        "{final:.3f}；测试准确率 **{accuracy:.0%}**。"
    ),
    "day02.live": "实时视图：{summary}。",
    "takeoff.side.here": "本机的 GPU（{device}）",
    "takeoff.side.reference": "{gpu}",
    "takeoff.side.lesson": "课程中那一次 GPU 运行",
    # 第 6 天的发现
    "day06.curve": "{model}（在 {device} 上）",
    "day06.measured_on": "测量环境：**{card}**（使用全部可用线程，PyTorch 的默认设置）。",
    "day06.panel.title": "测量你选的一步",
    "day06.panel.model": "模型",
    "day06.panel.log10_rows": "log10 行数",
    "day06.column.pays_off": "GPU 从此开始划算（与 {against} 相比）",
    "day06.column.bound": "课程里的 GPU 在此之下不可能划算（由它唯一的测量点得出的界）",
    "day06.never_covered": "在两条曲线都覆盖的行数内从不划算",
    "day06.rows": "{rows:,.0f} 行",
    "day06.point": "{model}，{rows:,} 行，在 {device} 上：每步 {ms:,.2f} ms",
    "day06.not_reached": "在测量的大小范围内没有达到",
    "day06.intensity": (
        "小网络在最大尺寸时每字节做 {tiny:.1f} 次浮点运算，宽网络做 {wide:.1f} 次："
        "宽网络给每个字节的工作量多得多。"
    ),
    "day06.reaches": (
        "所以宽网络达到 {wide:.2f} GFLOP/s，而小网络只有 {tiny:.2f}。同一台设备；"
        "差别在于每个字节、每个启动的操作分到多少计算。"
    ),
    "day06.batch": "**{name}**：批量 {small} 每个轮次的耗时是批量 {large:,} 的 {slower:.1f}×。",
    "day06.side": "比较中的 GPU 一方：**{against}**。",
    "day06.loading": (
        "加载：这里每个核心每秒 **{per_core:,.0f} 张图片**，{cores} 个核心：每秒 {rate:,.0f} 张。"
    ),
    "day06.imagenet": (
        "一批 256 张图片就已经是 {flops:.2e} 次浮点运算，远远超过任何起飞点："
        "下面是每台设备训练 90 个轮次所需的小时数，以及限制它们的因素："
    ),
    "utilisation.workers.none": (
        "在这里，没有哪个工作进程数比在主进程中加载（`num_workers=0`）更快。"
    ),
    "utilisation.workers.best": (
        "最好的普通工作进程数：**{best}**，速度是 `num_workers=0` 的 {speed:.2f}×。"
    ),
    "utilisation.workers.not_tried": "没有尝试比这更多的工作进程数",
    "utilisation.workers.helped": (
        "{most} 个工作进程（比 CPU 多）仍然有帮助（速度是 {at_cpus} 个时的 {beyond:.2f}×）"
    ),
    "utilisation.workers.nothing": (
        "{most} 个工作进程（比 CPU 多）没有带来任何提升（速度是 {at_cpus} 个时的 {beyond:.2f}×）"
    ),
    "utilisation.workers.in_the_way": (
        "{most} 个工作进程（比 CPU 多）反而碍事（速度是 {at_cpus} 个时的 {beyond:.2f}×）"
    ),
    "utilisation.workers.cpus": (
        "本进程可以使用 **{cpus} 个 CPU**，由工作进程和训练步骤共享；{why}。"
        "在轮次之间保留 2 个工作进程（`persistent_workers`）让第二个轮次的速度是重新启动它们的 "
        "{kept:.2f}×（每种设置只运行一次：小的比值请当作噪声）。"
    ),
    # 第 7 天的发现
    "day07.recognised": "被识别为内存不足：{oom}",
    "day07.where.pretend": (
        "一台假想的 {mb:.0f} MB 设备（这里没有 GPU；抛出的是 PyTorch 真正的内存不足错误类型）"
    ),
    "day07.where.gpu": "这块 GPU（{gb:.0f} GB）",
    "day07.measured_on": "测量环境：**{card}**。",
    "day07.epoch": (
        "一个轮次，{steps} 步，`num_workers=0`：**{waiting:.2f} s 在等待**数据，"
        "**{computing:.2f} s 在执行步骤**：步骤占比 **{busy:.0%}**。"
    ),
    "day07.items": (
        "每一项都是一张 {size}×{size} 的 JPEG，在 CPU 上解码并缩小：这台机器单核每秒读取 "
        "**{rate:,.0f} 项**，而循环在每一步之前都要等一个批次的全部 64 项。"
    ),
    "day07.peak": "这台设备的峰值：**{peak:,.1f} GFLOP/s**（{threads} 个线程）。",
    "day07.operator_share": (
        "在这台 CPU 上，“忙碌占比”是在做计算的算子内耗时；GPU 的性能分析统计的则是内核时间，"
        "也就是 `nvidia-smi` 估计的那个数字。"
    ),
    "day07.panel.title": "用你的加载设置跑一个轮次",
    "day07.panel.pixels": "JPEG 边长（像素）",
    "day07.one_epoch": (
        "{workers} 个工作进程，{size}×{size} 的 JPEG：等待 {waiting:.2f} s，计算 {computing:.2f} "
        "s，"
        "忙碌 **{busy:.0%}**。"
    ),
    "day07.relu": (
        "`x.relu()` 在峰值时多用了 **{new:,.0f} MB**；`x.relu_()` 多用了 **{in_place:,.0f} MB**。"
    ),
    "day07.autocast.scaler": (
        "在 **{device}** 上：autocast 使用 **{dtype}**，启用 GradScaler（{why}）。"
    ),
    "day07.autocast.no_scaler": (
        "在 **{device}** 上：autocast 使用 **{dtype}**，不启用 GradScaler（{why}）。"
    ),
    "day07.precision": (
        "批量 {batch:,}，在 {device} 上：float32 每步 **{float32_ms:.1f} ms**，{label} "
        "**{mixed_ms:.1f} ms**（中位数）：autocast 在这里的速度是 "
        "**{ratio:.2f}×**（各轮比值的中位数）。"
    ),
    "day07.capability": "CPU 能力级别：{capability}。",
    "day07.accumulation": (
        "批量 {big:,} 一次算完：峰值 **{whole:,.0f} MB**；拆成 {parts} 个 {micro_rows:,} "
        "行的微批次："
        "**{micro:,.0f} MB**。"
    ),
    "day07.same_gradients": "梯度相同：**{same}**。",
    "day07.starting": "在{where}上，从批量 {start:,} 开始：",
    "day07.goes_on": "训练可以用批量 **{batch:,}** 继续（或者用梯度累积保留大批量）。",
    "day07.tuning": "每 {epochs} 个轮次的秒数：{verdict}",
    "day07.halving": (
        "宽度减半后，权重减到 {share:.0%}，在批量 {batch:,} 时一步的速度是原来的 **{speed:.1f}×**"
        "（各轮比值的中位数）。"
    ),
    # 课程自己的图
    "plot.epoch": "轮次",
    "plot.training_loss": "训练损失（交叉熵）",
    "plot.model_on": "{model}，在 {device} 上",
    "plot.since_start": "从开始起的时间（s）",
    "plot.memory_gb": "内存（GB）",
    "plot.memory_title": "负载运行期间的内存",
    "plot.bytes_copied": "拷贝的字节数",
    "plot.time_per_copy": "每次拷贝的时间（µs）",
    "plot.copy_title": "每次拷贝的时间（中位数，误差线：四分位距）",
    "plot.throughput": "吞吐量（GB/s）",
    "plot.throughput_title": "吞吐量",
    "plot.measured_here": "{name}，{on}（在这里测得）",
    "plot.reference": "{name}，{gpu}",
    "plot.rows_full_batch": "每步的行数（全批量）",
    "plot.step_ms": "每个训练步的时间（ms）",
    "plot.step_title": "每个训练步的时间与行数",
    "plot.your_point": "你的点",
    "plot.rows_per_step": "每步的行数",
    "plot.time_per_step": "每步的时间（ms）",
    "plot.batch_size": "批量大小（每步的行数）",
    "plot.epoch_seconds": "每个轮次的时间（s）",
    "plot.epoch_title": "在 {device} 上 {rows:,} 行的一个轮次",
    # day 5: loops, claims, compiled and the day's conclusions
    # helpers.claims
    "claims.claim.floor": (
        "每个轮次无论是否记录都要付出的底噪（floor）：Python 的 `for` 循环本身加上内核的启动开销"
    ),
    "claims.claim.sync": (
        "`.item()` 是一次同步（synchronisation），让 CPU 等待 GPU，并有阈值效应："
        "记录频率低于某个值后，等待就不再要紧"
    ),
    "claims.claim.issue": (
        "提交是异步的：一旦记录变得稀少，限制速度的是 CPU 发出命令的快慢，而不是同步的次数"
    ),
    "claims.claim.compute": "“大约 3 s 的必须的计算时长”，减去它之后剩下剩余时长",
    "claims.column.claim": "论断",
    "claims.column.verdict": "你的数据",
    "claims.column.evidence": "证据",
    "claims.verdict.supported": "成立",
    "claims.verdict.partly supported": "部分成立",
    "claims.verdict.not supported": "不成立",
    "claims.verdict.supported (second half only)": "成立（仅后半部分）",
    "claims.verdict.not testable": "在 {device} 上无法检验",
    "claims.verdict.loose: could be time inside operators": "含糊：可能是算子内耗时",
    "claims.verdict.loose: more than time inside operators": "含糊：不止是算子内耗时",
    "claims.line": "- **{verdict}**（{part}）：{evidence}",
    "claims.single.noise": "{n} 次单独的运行无法给一次记录定价：从中看不出任何直线，无论直不直。",
    "claims.single.drift": (
        "这 {n} 次运行发生了漂移：这样的斜率不可能由更多的记录造成，所以也无法定价。"
    ),
    "claims.single.priced": "这 {n} 次运行确实给一次记录定了价，不过每种条件只跑一次，依据很单薄。",
    "claims.launches.cuda": "其中 {computing:.0f} 个在计算，每个都是一次内核启动",
    "claims.launches.mps": "其中 {computing:.0f} 个在计算，每个都是一个 GPU 内核",
    "claims.launches.cpu": (
        "其中 {computing:.0f} 个在计算；CPU 不启动内核，所以由分发、autograd 和优化器的 Python 代码"
        "代替启动开销"
    ),
    "claims.floor.head": (
        "底噪是真实的：每个轮次 {value}（95% 区间 {low} 至 {high}），无论记录什么都要付出；"
        "一个轮次中有 {outside:.0%} 在算子自身的时间之外"
    ),
    "claims.floor.loop": (
        "带 `%` 判断的 `for` 语句占其中 {ns:.0f} ns（{percent:.2g}%）：承载底噪的“循环”"
        "是每个轮次运行的 Python 代码，而不是循环语句本身"
    ),
    "claims.floor.overhead": (
        "{head}：是开销，即发出每个轮次分发的 {operators:.0f} 个算子的代价（{launches}）。{loop}。"
    ),
    "claims.floor.work": "{head}：底噪大部分是算子本身的工作，而不是循环或启动。{loop}。",
    "claims.sync.priced": "一次记录的代价是 {price}",
    "claims.sync.sharp": "这些运行能发现 {smallest} 或更大的代价",
    "claims.sync.no_queue": (
        "在 {device} 上没有排队的工作，所以 `.item()` 没有什么可等：它读取的是内存中已有的数。"
        "这些运行看到的（{priced}；{zero}；弯曲 {bend}）是记录本身的工作或噪声，而不是等待；"
        "请在 GPU 上运行这个 notebook 来检验这一论断。"
    ),
    "claims.sync.hidden": (
        "在这台 {device} 设备上看不出等待：{priced}：{zero}；{sharp}，所以即使有代价，也比这更小。"
    ),
    "claims.sync.drift": (
        "记录越多运行反而越快（{priced}）：这是机器的漂移，而不是开销。请增加轮数重新运行。"
    ),
    "claims.sync.threshold": (
        "等待是真实的：{priced}，而且时间向上弯曲（弯曲 {bend}）：频繁的记录每次更贵，"
        "稀少的几乎不花时间：这就是阈值效应。"
    ),
    "claims.sync.no_threshold": (
        "等待是真实的：{priced}。但时间没有向上弯曲（弯曲 {bend}）：无论记录多频繁，"
        "每次代价都相同，"
        "所以等待的影响与次数成正比：没有阈值。"
    ),
    "claims.issue.facts": (
        "记录稀少时一个轮次耗时 {epoch}，其中 {overhead:.0%} 在算子之外（开销），"
        "一次运行中有 {sync_share:.1%} 花在记录的等待上；每个轮次发出更少的操作，"
        "在四轮中有三轮让训练至少快到 {speedup_low:.2f}×"
    ),
    "claims.issue.failed.inside": "一个轮次的大部分时间花在算子内部：是工作本身，而不是发出工作",
    "claims.issue.failed.waits": "等待仍占了大部分时间",
    "claims.issue.failed.speed": "少发出操作并没有稳定地变快",
    "claims.issue.not_supported": "{facts}；但是{reasons}。",
    "claims.issue.second_half": (
        "在 CPU 上没有排队的工作（CPU 自己运行每个算子），所以只能检验后半部分，而它成立：{facts}。"
    ),
    "claims.issue.supported": "{facts}。",
    "claims.compute.head": (
        "{epochs} 个轮次 {seconds:g} s，即每个轮次 {per_epoch}。若当作纯计算"
        "（每个轮次 {flops:,.0f} 次浮点运算），那是 {gflops:.3g} GFLOP/s，比本机自己的峰值低 "
        "{below:,.0f}×：它不是算术时间。在这里，{epochs} 个轮次中算子自身的时间是 "
        "{inside_total:.2g} s（每个轮次 {inside}）"
    ),
    "claims.compute.inside": (
        "{head}：这 {seconds:g} s 在它的两倍以内，所以可能是算子内耗时"
        "（在 GPU 上，内核无论计算多少都要花几微秒）；课程没有说明，"
        "所以它的剩余时长也没有明确的定义。"
    ),
    "claims.compute.overhead": (
        "{head}：这 {seconds:g} s 超过了它的两倍，所以其中一定还有开销；"
        "课程没有说明，所以它的剩余时长也没有明确的定义。"
    ),
    # helpers.compiled
    "compiled.note.unavailable": "此处不可用（{error}：{why}）",
    "compiled.space": (
        "`torch.compile` 无法在路径含空格的文件夹下构建 C++（{folder}）：PyTorch 把这个路径不加"
        "引号地传给编译器（pytorch/pytorch#191010）。解决办法：让 PyTorch、Python 和编译缓存"
        "（`TORCHINDUCTOR_CACHE_DIR`）都位于不含空格的路径下（课程文件夹的路径含空格时，`make` "
        "和课程自己的运行会自动这样做）"
    ),
    "compiled.note.declined": "Inductor 拒绝了 CUDA graphs（它的警告说明了原因）：未纳入",
    "compiled.note.first_calls": "本进程中的首次调用耗时 {seconds:.1f} s",
    "compiled.note.needs_gpu": "需要 NVIDIA GPU：此处未测量",
    "compiled.not_measured": "未测量",
    "compiled.never": "永不",
    "compiled.advice.cold.missing": "冷缓存：本次运行未测量",
    "compiled.advice.warm.missing": "热缓存：本次运行未测量",
    "compiled.advice.cold": (
        "冷缓存时，{epochs:,} 个轮次用 **{short}**（共 {short_s:.1f} s），"
        "{long_epochs:,} 个轮次用 **{long}**（{long_s:,.0f} s）"
    ),
    "compiled.advice.warm": (
        "热缓存时，{epochs:,} 个轮次用 **{short}**（共 {short_s:.1f} s），"
        "{long_epochs:,} 个轮次用 **{long}**（{long_s:,.0f} s）"
    ),
    "compiled.advice": "算上编译，端到端最快的是：{lines}。",
    # helpers.profiling
    "profiling.row.phase": "阶段",
    "profiling.row.operator": "算子",
    "profiling.row.kernel": "内核",
    "profiling.x": "时间（距第一个事件的 µs）",
    # helpers.recording
    "recording.measured_on": "测量环境：**{card}**。这里 PyTorch 特意只用 1 个线程。",
    "recording.one_thread": "单线程",
    "recording.arithmetic": (
        "一个轮次是 **{flops:,} 次浮点运算**；这台设备的峰值是 **{peak:,.1f} GFLOP/s**（{where}），"
        "所以在耗时 **{epoch_us:,.0f} µs** 的一个轮次里，计算只需要 **{arithmetic_us:.2f} µs**。"
        "算子内耗时是 **{inside_us:,.0f} µs**（占轮次的 {inside_share:.0%}），"
        "是算术时间的 {ratio:,.0f}×：作用在小张量上的算子，代价远超它所做的加法和乘法。"
    ),
    "recording.runs.same": "每次运行 {epochs} 个轮次（与那位学员相同）。",
    "recording.runs.other": "每次运行 {epochs} 个轮次（不是那位学员的 {student} 个）。",
    "recording.fits": (
        "- **那位学员的四次运行：**{student} 他们运行间的离散是 {student_sd:.2f} s："
        "{student_says}\n"
        "- **你的四次运行：**{yours} 你的离散是 {your_sd:.2f} s：{your_says}"
    ),
    "recording.round": "第 {i} 轮：{names}",
    "recording.rounds": "每次运行 {epochs} 个轮次，每一轮都有自己的随机顺序（{rounds}）。",
    "recording.noise": (
        "- 每个轮次都记录对比从不记录（每次运行的秒数）：{extremes}\n"
        "- 课程的对比，每 100 次对比每 2000 次：{lesson}\n"
        "- 运行间的噪声：四分位距通常是一次运行时间的 **{noise:.1%}**。"
    ),
    "recording.price.below": (
        "**代价：**{price}\n\n**形状：**{shape}\n\n用 `torch.utils.benchmark` 单独计时，"
        "一次 `.item()` 耗时 {item_us:.2f} µs（中间一半的块在 {low_us:.2f} 至 {high_us:.2f} µs）。"
        "\n\n在 {epochs} 个轮次下，`a` 大约是 **{a_run:.1f} s**，即每个轮次 {a_us:.0f} µs，"
        "任何记录频率都去不掉它。第 2 节测得这样的运行为 **{fastest:.2f} 至 {slowest:.2f} s**"
        "（每个轮次 {fastest_us:.0f} 至 {slowest_us:.0f} µs），所以 `a` 比它们的中位数低 "
        "{off:.0%}："
        "机器的速度在相隔几分钟的测量之间会漂移，所以只比较同一次交错运行测得的数"
        "（第 9 节列出了本课测得的每一个轮次时间）。"
    ),
    "recording.price.above": (
        "**代价：**{price}\n\n**形状：**{shape}\n\n用 `torch.utils.benchmark` 单独计时，"
        "一次 `.item()` 耗时 {item_us:.2f} µs（中间一半的块在 {low_us:.2f} 至 {high_us:.2f} µs）。"
        "\n\n在 {epochs} 个轮次下，`a` 大约是 **{a_run:.1f} s**，即每个轮次 {a_us:.0f} µs，"
        "任何记录频率都去不掉它。第 2 节测得这样的运行为 **{fastest:.2f} 至 {slowest:.2f} s**"
        "（每个轮次 {fastest_us:.0f} 至 {slowest_us:.0f} µs），所以 `a` 比它们的中位数高 "
        "{off:.0%}："
        "机器的速度在相隔几分钟的测量之间会漂移，所以只比较同一次交错运行测得的数"
        "（第 9 节列出了本课测得的每一个轮次时间）。"
    ),
    "recording.floor": (
        "空循环每个轮次耗时 **{bare_ns:.0f} ns**；底噪，即每个轮次的 `a`，是 **{floor_us:.0f} "
        "µs**。"
        "每个轮次分发 **{operators:.0f} 个算子**（其中 {computing:.0f} 个做计算；"
        "在 GPU 上每个都是一次内核启动）。"
    ),
    "recording.profiler": (
        "在性能分析器下，这些阶段每个轮次耗时 **{phases_us:,.0f} µs**（它们自身的时间，"
        "不含之间的空隙），是不开分析器时整个轮次 {epoch_us:,.0f} µs 的 {slowdown:.1f}×："
        "这里要看的是占比，而不是绝对时间。"
    ),
    "recording.timeline": (
        "这 {shown} 个被追踪的轮次，从第一个事件到最后一个，每个耗时 **{traced_us:,.0f} µs**，"
        "是不开分析器时一个轮次的 {ratio:.1f}×（上面的阶段表：{slowdown:.1f}×，"
        "只算各阶段自身的时间）。"
        "做计算的算子占了这条时间线的 **{operators:.0%}**；它们之间的空白就是开销。"
        "完整的追踪文件在 `{trace}`：用 [Perfetto](https://ui.perfetto.dev) 打开"
        "（*Open trace file*），可以放大查看每个算子及其调用栈和线程。"
    ),
    "recording.timeline.kernels": (
        "这 {shown} 个被追踪的轮次，从第一个事件到最后一个，每个耗时 **{traced_us:,.0f} µs**，"
        "是不开分析器时一个轮次的 {ratio:.1f}×（上面的阶段表：{slowdown:.1f}×，"
        "只算各阶段自身的时间）。"
        "做计算的算子占了这条时间线的 **{operators:.0%}**；它们之间的空白就是开销。"
        "GPU 的内核占了其中的 **{kernels:.0%}**。完整的追踪文件在 `{trace}`："
        "用 [Perfetto](https://ui.perfetto.dev) 打开（*Open trace file*），"
        "可以放大查看每个算子及其调用栈和线程。"
    ),
    "recording.bandwidth": "**{gbs:,.1f} GB/s**（{label}）",
    "recording.roofline": (
        "峰值 **{peak:,.1f} GFLOP/s**（一个大矩阵乘法，{threads}）；带宽 {bandwidths}。"
        "\n\n{workloads}\n\n{fused}"
    ),
    "recording.roofline.fused": (
        "融合之后，这串运算的速度是 eager 模式的 **{speedup:.1f}×**：同样的计算，搬运的字节少了 "
        "{fewer}×。"
    ),
    "recording.roofline.unfused": "编译后的运算链在这里没有测量：{why}。",
    "recording.same_losses": "所有变体算出的损失都相同（相对误差在 1e-4 以内）。{notes}。",
    "recording.fastest": (
        "\n\n- 每个轮次最快的变体是 **{best}**，速度是每 100 个轮次记录一次的课程循环的 "
        "**{speedup:.1f}×**（{repeats} 轮、每轮 {epochs} 个轮次的中位数）。\n"
        "- 它每个轮次仍需 **{best_us:.1f} µs**，是算术时间（{arithmetic_us:.2f} µs）的 "
        "**{ratio:,.0f}×**：剩下的是生成代码在小张量上自身的工作，以及残余的开销。"
    ),
    "recording.compile.fast": (
        "{advice}（快速模式不测量冷编译，热编译的时间取自本进程的第一次调用：新进程要花几十秒。）"
    ),
    "recording.epoch_times": (
        "课程循环的一个轮次，各节测得的结果：从 {low:,.0f} 到 {high:,.0f} µs，相差 {ratio:.2f}×。"
        "各节相隔几分钟运行，运行长度和记录方式也不同：只在同一次交错比较之内比较数字，"
        "不要跨节比较。"
    ),
    "recording.live": (
        "{label}，在 {on} 上 {epochs} 个轮次：{seconds:.3f} s（每个轮次 {epoch_us:.0f} µs）"
    ),
    "recording.can": "能",
    "recording.cannot": "不能",
    "recording.stands": "成立",
    "recording.bends": "弯曲",
    "recording.summary.part": "{part}：*{verdict}*",
    "recording.summary": (
        "**这次运行在 {device} 上发现了什么。** 那位学员的表格{student}给一次记录定价；"
        "你的扫描{yours}（{price}），直线{line}。课程的轮次是**{regime}**："
        "算术时间占 {arithmetic:.2%}，算子内耗时占 {inside:.0%}，空的 `for` 循环占底噪的 "
        "{loop:.2g}%。每个轮次最快的改法是 **{best}**，速度是每 100 个轮次记录一次的课程循环的 "
        "**{speedup:.1f}×**。{advice} 逐项的结论：{verdicts}。"
    ),
    # 第 5 天自己的图
    "day05.panel.epochs": "轮次",
    "day05.panel.device": "设备",
    "day05.panel.every": "记录",
    "day05.panel.title": "现场运行一种条件",
    "day05.quartiles": "{low:.2f} 至 {high:.2f}",
    "day05.column.median_s": "中位数（s）",
    "day05.column.q1_s": "第一四分位数（s）",
    "day05.column.q3_s": "第三四分位数（s）",
    "day05.column.spread_s": "离散：四分位距（s）",
    "day05.plot.recordings": "每次运行的记录次数",
    "day05.plot.remaining": "剩余时长（s）",
    "day05.plot.fits_title": "剩余时长与记录次数，以及拟合的直线",
    "day05.plot.student": "学员（GPU）",
    "day05.plot.you": "你（{device}）",
    "day05.plot.median": "中位数，误差线：四分位距",
    "day05.plot.recordings_never": "每次运行的记录次数（对数坐标；0 = 从不）",
    "day05.plot.run_time": "运行时间（s）",
    "day05.plot.sweep_title": "在 {device} 上 {epochs} 个轮次",
    "day05.plot.runs_minus_line": "各次运行减去直线",
    "day05.plot.parabola": "抛物线减去直线",
    "day05.plot.recordings_log": "每次运行的记录次数（对数坐标）",
    "day05.plot.residual": "残差（ms）",
    "day05.plot.residuals": "残差",
    "day05.plot.medians": "第 3 节的中位数（{device}）",
    "day05.plot.your_runs": "你的运行（换算到相同轮次）",
    "day05.plot.seconds_per": "每 {epochs} 个轮次的秒数",
    "day05.plot.timeline": "课程循环在 {device} 上的 {epochs} 个轮次",
    # receipts: a GPU's figures beside this machine's (helpers.receipts)
    "receipts.label.yours": "{machine}，{day}（你的收据）",
    "receipts.label.reference": "{machine}，{day}（课程的参考收据，不是你的）",
    "receipts.label.here": "本机（{device}），现在",
    "receipts.none": (
        "这里还没有 GPU 的收据，所以只显示本机的数字。在租用的 GPU 上（Colab、Kaggle 或 GPU "
        "平台）运行 `python -m helpers receipt --out my-gpu.json`，把文件复制到 `{folder}`，"
        "再运行这个单元。"
    ),
    "receipts.broken": "跳过了一张损坏的收据：{problem}",
    "receipts.source.yours": "与本机并列：**{label}**，来自 `{file}`。",
    "receipts.source.reference": (
        "与本机并列：**{label}**，来自 `{file}`：由课程测得，不是你测的。"
        "你自己的收据放在 `receipts/` 文件夹里，会取代它。"
    ),
    "receipts.source.also": "另有：**{label}**，来自 `{file}`。",
    "receipts.missing": "未测量",
    "receipts.card.device": "设备",
    "receipts.card.memory": "内存",
    "receipts.card.driver": "驱动 / CUDA",
    "receipts.card.torch": "PyTorch 版本",
    "receipts.card.cpu": "主机 CPU，线程数",
    "receipts.copy.h2d_pageable": "主机到设备，可分页内存",
    "receipts.copy.h2d_pinned": "主机到设备，锁页内存",
    "receipts.copy.d2h_pageable": "设备到主机，可分页内存",
    "receipts.copy.d2h_pinned": "设备到主机，锁页内存",
    "receipts.copy.on_device": "设备内部（在 CPU 上：内存到内存）",
    "receipts.day02.pinned": (
        "在那台设备上，{size:,} 字节的锁页内存拷贝比可分页内存拷贝快 {ratio:.1f}×："
        "可分页内存的拷贝要先经过一个锁页的中转缓冲区。"
    ),
    "receipts.day05.item": "单独一次 .item()",
    "receipts.day05.recording": "循环中的一次记录（它的代价 b）",
    "receipts.day05.launches": "启动一个轮次的内核（启动开销的底噪）",
    "receipts.day05.lesson": "课程循环的一个轮次（{lesson}）",
    "receipts.day05.kept": "损失留在设备上的一个轮次（没有等待）",
    "receipts.day05.fastest": "最快变体的一个轮次（{fastest}）",
    "receipts.day05.student": "按这些价格计算学生的运行：20,000 个轮次，200 次记录",
    "receipts.day05.no_busy": "这张收据没有课程循环的设备忙碌占比，所以不在它上面判断第三部分。",
    "receipts.day05.verdict": (
        "**第三部分（异步提交）：** 本机 *{here}*；在 {label} 上 *{there}*。{evidence}"
    ),
    "receipts.day05.no_quartile": (
        "这张收据只记录了每个变体加速比的中位数，没有各轮的下四分位数，所以不在它上面判断第三部分"
        "（`python -m helpers receipt` 写出的收据两者都有）。"
    ),
    "receipts.day06.none": (
        "没有可以与本机曲线并列的 GPU 曲线：这里没有 GPU 的收据。在租用的 GPU 上运行 "
        "`python -m helpers receipt --out my-gpu.json`，把文件复制到 `{folder}`，再运行这个笔记本；"
        "在那之前，下面的交叉点只能由课程的那一次运行给出界限。"
    ),
    "receipts.day07.device_busy_share": "设备忙碌占比",
    "receipts.day07.MFU": "MFU",
    "receipts.day07.peak": "峰值 FLOP/s（一个大矩阵乘法）",
    "receipts.day07.bandwidth": "内存带宽（设备内部的一次大拷贝）",
    "receipts.day07.pinned": "主机到设备拷贝，锁页内存",
    "receipts.day08.none": (
        "这里没有两块或更多 GPU 的收据，所以没有真实链路上的全归约可以展示。在有多块 GPU 的"
        "机器上运行 `python -m helpers receipt --out my-gpus.json`，把文件复制到 `{folder}`。"
    ),
    "receipts.day08.column": "全归约（all-reduce）总线带宽，{gpus} 块 GPU：{label}",
    "receipts.day08.ratio": (
        "**{method}** 在本机：拟合得 {here}；收据中的 GPU 达到 {there}，是它的 {ratio:,.0f}×。"
    ),
    # day 8: distributed, ranks, ddp_train and the day's conclusions
    # helpers.scaling 与 helpers.links
    "scaling.communication.bound": "**通信受限**：进程越多，每一步反而越慢",
    "scaling.communication.large": (
        "通信占了很大一部分：更少、更大的 all-reduce（更大的批量）才划算"
    ),
    "scaling.communication.compute": "**计算受限**：与计算相比，all-reduce 的代价很小",
    "scaling.overlap.none": (
        "这一步等待的时间比单独做一次全部梯度的 all-reduce（{allreduce_ms:.2f} ms）还长："
        "重叠什么也没有藏住，多出的 {other_ms:.2f} ms 不是 all-reduce 本身，"
        "而是 DDP 在它周围的工作，或者进程之间拖慢了彼此的计算。"
    ),
    "scaling.overlap.hidden": "把 all-reduce 与反向传播重叠，藏住了它的 {hidden:.0%}。",
    "scaling.communication": (
        "{name}模型：通信占每一步的 {share:.0%}（{step_ms:.2f} ms 中的 {exposed_ms:.2f} ms）；"
        "{kind}。{overlap}"
    ),
    "scaling.lost.unknown": "损失来自通信，或者进程之间拖慢了彼此的计算",
    "scaling.lost.shared": "损失来自通信和共享的核心（计算：单独时的 {contention:.2f}×）",
    "scaling.lost.communication": (
        "损失来自通信（与其他进程并行时的计算：单独时的 {contention:.2f}×）"
    ),
    "scaling.head.strong": (
        "强扩展，{processes} 个进程：吞吐量是单进程的 {speedup:.2f}×（效率 {efficiency:.0%}）"
    ),
    "scaling.head.weak": (
        "弱扩展，{processes} 个进程：吞吐量是单进程的 {speedup:.2f}×（效率 {efficiency:.0%}）"
    ),
    "scaling.verdict.slower": "{head}：**比单进程还慢**：损失的比分摊工作省下的还多；{lost}。",
    "scaling.verdict.above_ideal": (
        "{head}：**超过了理想值**，N 个进程的吞吐量超过单进程的 N 倍：单进程的那次运行被拖慢了"
        "（噪声，或者数据能装进 N 个进程的缓存却装不进一个进程的）；请重复测量后再解读。"
    ),
    "scaling.verdict.perfect": "{head}：**近乎完美**的扩展。",
    "scaling.verdict.lossy": "{head}：**有用但有损失**；{lost}。",
    "scaling.verdict.poor": (
        "{head}：**很差**，不到理想值的 60%；把一步拆分成计算和通信，就能看出损失中有多少是 "
        "all-reduce。"
    ),
    "scaling.difference": "{a} 减 {b}，每一步：{value}：{zero}",
    "scaling.difference.none": "{said}；看不出差别。",
    "scaling.difference.slower": "{said}，所以 {slower} 更慢。",
    "scaling.contention": (
        "即使没有通信，与其他进程并行时计算 {rows} 行每步需要 {beside_ms:.1f} ms，"
        "单独计算则需要 {alone_ms:.1f} ms"
    ),
    "scaling.contention.shared": "{head}：耗时为 {ratio:.2f}×：这些进程共享核心、内存和缓存。",
    "scaling.contention.faster": (
        "{head}：耗时为 {ratio:.2f}×，与其他进程并行时反而比单独更快，这无法用共享来解释："
        "两次测量中有一次受到了干扰，所以这个比较说明不了争用。"
    ),
    "scaling.contention.same": (
        "{head}：大致相同（{ratio:.2f}×），所以进程之间几乎没有拖慢彼此的计算；"
        "多一个进程损失的部分都花在了通信上。"
    ),
    "links.latency": (
        "延迟 **{value:,.1f} µs**（95% 区间 {low} 至 {high} µs；最小的消息 {size:,.0f} {unit}，"
        "耗时 {took_us:,.1f} µs）"
    ),
    "links.rough": "但这些点离曲线很远（通常为其时间的 {error:.0%}）：两个数都只能当作数量级来读",
    "links.close": "曲线与各点时间的偏差通常在 {error:.0%} 以内",
    "links.no_bandwidth": "{head}；这里时间不随大小增长：从中读不出带宽；{miss}",
    "links.bandwidth": (
        "{head}，带宽 **{value:.2f} GB/s**（95% 区间 {low} 至 {high} GB/s，按{unit}计）；{miss}"
    ),
    # helpers.cluster
    "cluster.measured_on": (
        "测量环境：**{card}**。{why} 本课用后端 **{backend}** 运行 **{n} 个进程**。"
    ),
    "cluster.collective": (
        "每个进程都打印了自己的一行。每个 rank 用 `dist.all_reduce` 加上 `rank + 1`，"
        "得到的都是 **{total:g}**，处处相同：这就是集合通信。"
    ),
    "cluster.sampler.changes": (
        "{rows} 行分给 {n} 个 rank：每个 rank 得到 {per_rank} 行；每个轮次有 {twice} 行被分发两次"
        "（补齐），{rows} 行中有 {distinct} 行至少分到一次。打乱后的顺序随轮次变化。"
    ),
    "cluster.sampler.same": (
        "{rows} 行分给 {n} 个 rank：每个 rank 得到 {per_rank} 行；每个轮次有 {twice} 行被分发两次"
        "（补齐），{rows} 行中有 {distinct} 行至少分到一次。打乱后的顺序**不**随轮次变化。"
    ),
    "cluster.ring_bytes": (
        "4 个 rank 各自发送了张量的 {share:.2f}×：这些字节经由 `dist.isend` 发送，"
        "由 `helpers.distributed.count_sends` 计数，而不是按公式算出来的。"
    ),
    "cluster.buckets": "- 宽网络（{mb:.1f} MB 梯度）：{buckets}\n- 小网络：{item}",
    "cluster.accepted": "脚本接受了它：部分 `{parts}`，结果存放在 `{out}`。",
    "cluster.failure_plan": (
        "两次运行都从第 {start} 步跑到第 {end} 步。rank 1 在第 **{fail_at}** 步被终止；"
        "rank 0 每 **{every}** 步写一次检查点。"
    ),
    "cluster.restarts": (
        "`torchrun` 启动了工作进程 {attempts} 次；最后一次从第 {resumed} 步恢复。{verdict}"
    ),
    "cluster.failure_price": (
        "故障的代价：{twice} 步被计算了两次，外加一次重启（两者并排运行，被终止的那次耗时 "
        "{killed_s:.0f} s，未受干扰的那次 {calm_s:.0f} s）。"
    ),
    "cluster.memory": (
        "{billions:g} 十亿参数分布在 {gpus} 块 GPU 上（{recipe}），不含激活值。"
        "能装进 80 GB（H100 的标称显存）的：{fits}。"
    ),
    "cluster.memory.none": (
        "{billions:g} 十亿参数分布在 {gpus} 块 GPU 上（{recipe}），不含激活值。"
        "能装进 80 GB（H100 的标称显存）的：一个也没有。"
    ),
    "cluster.fsdp": (
        "在 {gpus} 块 GPU 上运行 FSDP：每块持有宽网络 {params:,} 个权重中的 **{local:,}** 个"
        "（{share:.0%}）；每个 rank 的峰值显存："
    ),
    "cluster.fsdp.not_run": (
        "**这里没有运行：这个单元只在 NVIDIA GPU 上运行 FSDP。** FSDP 用 all-gather 和 "
        "reduce-scatter 分片；课程在 NCCL 上运行它，那是它的设计环境，而每块 GPU "
        "的显存正是本节的主题。"
        "在有 GPU 的机器上，它会分片训练宽网络，并显示每块 GPU 持有的权重份额。"
    ),
    # 第 8 天自己的图
    "day08.case": "- **{case}：** {verdict}",
    "day08.panel.recipe": "训练配置",
    "day08.panel.gpus": "GPU 数",
    "day08.panel.billions": "参数（十亿）",
    "day08.panel.title": "每块 GPU 上权重、梯度和优化器状态占用的内存",
    "day08.column.smallest": "最小的消息，{size} 字节，测得 (µs)",
    "day08.interval": "{low:,.0f} 至 {high:,.0f}",
    "day08.column.compute": "只计算",
    "day08.column.ddp": "DDP 一步",
    "day08.column.allreduce": "单独的全归约",
    "day08.column.exposed": "等待通信",
    "day08.column.hidden": "被重叠藏住",
    "day08.plot.tensor_bytes": "张量大小（字节）",
    "day08.plot.allreduce_us": "每次全归约的时间（µs）",
    "day08.plot.ring_title": "{n} 个进程上的全归约（{backend}），以及拟合的曲线",
    # day 8: distributed.same_weights_verdict and the learning-rate cells (05, 11, 13)
    "distributed.plan.cpu": (
        "没有 GPU：使用 gloo（PyTorch 的 CPU 通信后端），经由本机回环 TCP 通信。"
    ),
    "distributed.plan.mps": "Apple GPU：MPS 没有分布式通信后端，所以用 gloo 在 CPU 上运行。",
    "distributed.plan.one_gpu": (
        "一块 NVIDIA GPU：NCCL 要求每个进程一块 GPU，所以这些进程用 gloo 在 CPU 上运行（FSDP 那"
        "个单元会用到 GPU）。"
    ),
    "distributed.plan.nccl": "{count} 块 NVIDIA GPU：NCCL，每个进程一块 GPU。",
    "distributed.identical": "{head}最终的{things}**完全相同**（逐位一致）。",
    "distributed.same": (
        "{head}最终的{things}**相同**：最大差异 {difference:.1e} 在容差 {tolerance:.0e} 之内"
        "（float32 按另一种顺序求和）。"
    ),
    "distributed.different": (
        "{head}最终的{things}**不同**：最大差异 {difference:.1e} 超过了容差 {tolerance:.0e}。"
        "有什么地方不一样：数据行、随机种子、学习率或求平均的方式。"
    ),
    "day08.launched": "`torchrun` 启动了 {n} 个进程，上面的全部内容用了 **{seconds:.0f} 秒**。",
    "day08.ddp_vs_one": "{n} 个进程、每个 {batch} 行的 DDP 与一个进程、{rows} 行的训练",
    "day08.check_can_fail": (
        "这个检查是会失败的：一个进程每步只用 {batch} 行时，"
        "结果与 DDP 的权重相差 {difference:.1e}。"
    ),
    "day08.lr_rule": (
        "假设学习率 {lr} 是在一个进程、每步 {batch} 行上调好的；线性规则让它随有效批量一起缩放。"
        "（本课的运行有意保持 {lr}：它检查的是 DDP 与一个进程用同样 {rows} 行的结果是否一致，"
        "而不是与调好的运行比较。）"
    ),
    "day08.lr.one": "一个进程（在这里调好）",
    "day08.lr.processes": "{n} 个进程",
    "day08.lr.gpus": "{n} 块 GPU",
    "day08.lr.accumulation": "{n} 块 GPU，{steps} 步梯度累积",
    "day08.lr.machines": "{machines} 台机器 × {n} 块 GPU",
    "day08.column.setting": "设置",
    "day08.column.rows_per_rank": "每个 rank 的行数",
    "day08.column.processes": "进程数",
    "day08.column.accumulation": "累积步数",
    "day08.column.effective_batch": "有效批量",
    "day08.column.lr": "学习率（线性规则）",
    # helpers.hardware.card_line: the machine in one line (days 1 and 5-8)
    "hardware.cpus_usable": "{cpu}（可用 {n} 个 CPU）",
    "hardware.card_line": (
        "{where} | 设备 {device} | torch {torch}（{build}），{threads} 个线程 | Python {python}"
    ),
    "hardware.card_line_one_thread": (
        "{where} | 设备 {device} | torch {torch}（{build}），{threads} 个线程 | Python {python}"
    ),
    "doctor.title": "课程环境检查",
    "doctor.os": "操作系统",
    "doctor.pytorch": "{version}（构建版本：{build}）",
    "doctor.cuda": "CUDA 可用",
    "doctor.mps": "MPS 可用",
    "doctor.yes": "是",
    "doctor.no": "否",
    "doctor.devices": "可用设备",
    "doctor.device": "课程使用的设备",
    "doctor.device.missing": "不可用",
    "doctor.device.unset": "{error} 取消 COURSE_DEVICE 的设置，让课程自己选择设备。",
    "doctor.cpu": "{cpu}（{logical} 个逻辑处理器中可用 {usable} 个）",
    "doctor.memory": "内存",
    "doctor.mode": "模式",
    "doctor.mode.fast": "快速（COURSE_FAST=1）",
    "doctor.mode.full": "完整",
    "doctor.packages": "软件包",
    "doctor.package.missing": "未安装",
    "doctor.package.install": "{name} 没有安装：运行 `make install`（或 `pip install -e .`）。",
    "doctor.tested": "测试过的版本",
    "doctor.tested.no_lock": "这里没有 requirements-lock.txt：没有比较版本",
    "doctor.tested.differ": "有 {n} 个已安装的软件包版本不同（见下面的警告）",
    "doctor.tested.ok": "正常（每个软件包都与 requirements-lock.txt 一致）",
    "doctor.sandbox": "评分沙箱",
    "doctor.sandbox.ok": "正常（{detail}）",
    "doctor.sandbox.missing": "不可用：{detail}",
    "doctor.filter": "notebook 过滤器",
    "doctor.filter.no_clone": "不是 git 克隆，不涉及提交",
    "doctor.filter.ok": "正常（输出不会进入 git 提交）",
    "doctor.filter.off": "未开启：运行 `python -m helpers git-filter`，输出就不会进入提交",
    "doctor.heart": "心脏病数据",
    "doctor.ok": "正常",
    "doctor.heart.problem": "有问题",
    "doctor.warn.more": "{shown}，另有 {n} 个",
    "doctor.warn.torch": (
        "PyTorch {version} 不是测试过的 {tested}；课程应该能运行，但如果出了问题，请试试 `make "
        "install TORCH_SPEC=torch=={tested}`。"
    ),
    "doctor.warn.versions": (
        "这些软件包的版本不在测试过的范围内：{shown}。课程应该能运行；如果出了问题，`make "
        "install` 会安装测试过的版本（requirements-lock.txt）。"
    ),
    "doctor.warn.cpu_build": (
        "这台机器有 NVIDIA GPU，但 PyTorch 是仅 CPU 的构建版本，所以课程在 CPU 上运行。修复："
        "重新安装一个 CUDA 构建版本，例如 `make install "
        "TORCH_INDEX=https://download.pytorch.org/whl/cu128`（在 {url} 选择适合你的驱动程序的 "
        "CUDA 版本）。"
    ),
    "doctor.warn.driver": (
        "PyTorch 是为 CUDA {cuda} 构建的，却看不到 GPU：驱动程序对这个构建版本来说可能太旧了。"
        "检查 `nvidia-smi`：它显示的“CUDA Version”的主版本号至少要与 {cuda} "
        "的相同（在同一个主版本内，CUDA 的次版本兼容性让更新的构建版本也能运行），"
        "否则请安装为更旧的 CUDA 构建的版本。"
    ),
    "doctor.warn.compile": "{problem}。其他部分都能运行；第 5 天的编译变体会被略过。",
    "doctor.warn.mps": (
        "这是一台 Apple 芯片的 Mac，但 MPS 不可用：请把 macOS 更新到 12.3 或更高版本，并确认 "
        "Python 是原生 arm64 构建（`python -c 'import platform; print(platform.machine())'` "
        "应当输出 arm64）。"
    ),
    "doctor.warning": "警告：{warning}",
    "doctor.error": "错误：{error}",
    "doctor.good": "一切就绪：课程将在 {device} 上运行。",
    "doctor.good.warnings": "一切就绪（有警告）：课程将在 {device} 上运行。",
    "day00.loss_not_down": "损失没有下降：训练出了问题。",
    "day00.fix_errors": "先修复上面报告的错误，然后再运行这个单元。",
    "device.no_such_gpu": (
        "{source} 要求使用 {name!r}，但这台机器只有 {n} 个 CUDA 设备（{present}）。"
        "这里可用的设备：{available}。"
    ),
    "device.missing": "{source} 要求使用 {name!r}，但{why}。这里可用的设备：{available}。",
    "device.not_a_name": (
        "{source} 要求使用 {name!r}，但这不是设备名。请使用其中之一：{available}。"
    ),
    "device.missing.other": "本课程中 PyTorch 不支持这种设备类型",
    "device.missing.mps": "MPS 已编译进来，但不可用（它需要 Apple 芯片上的 macOS 12.3 及以上版本）",
    "device.missing.no_mps_build": (
        "这个 PyTorch 构建时没有包含 MPS（MPS 只存在于 Apple 芯片的 Mac 上）"
    ),
    "device.missing.no_gpu": "PyTorch 支持 CUDA，但找不到 GPU（没有 GPU，或者驱动无法工作）",
    "device.missing.cpu_build": (
        "这个 PyTorch 是仅 CPU 的构建（torch {torch}）；请安装 CUDA 构建"
        "（见 README.zh-CN.md 的“安装合适的 PyTorch”一节）"
    ),
    "data.changed": (
        "{path} 的形状对，但内容不同（SHA-256 {digest}...，应为 {expected}...）："
        "它被修改或损坏了。{restore} 要加载你自己的文件，请传入 verify=False。"
    ),
    "data.non_numeric": "{path} 的 {columns} 列中有非数值（缺失值必须写成 '?'）。{restore}",
    "data.rows": "{path} 有 {rows} 行数据；Cleveland 数据应有 {expected} 行。{restore}",
    "data.columns": (
        "{path} 的列不对（缺少：{missing}；多出：{extra}；应有的列，按顺序：{expected}）。{restore}"
    ),
    "data.not_csv": "{path} 不是可读的 CSV 文件（{err}）。{restore}",
    "data.not_found": "在 {path} 找不到心脏病数据。{restore}",
    "data.restore": (
        "课程的数据副本应位于 {path}；用 `git checkout -- data/heart_cleveland.csv` "
        "恢复它（来源见 data/README.md）。"
    ),
    "data.none": "无",
    "joint.labelled": "{label}：{value}",
    "joint.clauses": "；",
    "joint.items": "、",
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
    "callables": "个可调用对象",
    "times": "倍",
    "times faster": "倍",
    "times slower": "倍",
    "times less": "倍",
    "times longer": "倍",
    "hours": "小时",
    # the names code passes to the verdicts of helpers.stats
    "every 1": "每个轮次都记录",
    "never": "从不记录",
    "every 100": "每 100 个轮次记录一次",
    "every 2000": "每 2000 个轮次记录一次",
    "one recording": "每次记录",
    "one-hot": "独热编码",
    "codes": "整数编码",
    "leaky": "有泄露的做法",
    "honest": "诚实的做法",
    "this choice": "这个选择",
    "the default": "默认值",
    # the readings the live view sums up (helpers.live)
    "process memory": "进程内存",
    "mps allocated": "MPS 已分配显存",
    # the limits and memory levels of helpers.roofline
    "compute-bound": "计算受限",
    "bandwidth-bound": "带宽受限",
    "overhead-bound": "开销受限",
    "cache": "缓存",
    "memory": "内存",
    # the names day 8 passes to helpers.scaling and helpers.links
    "small": "小",
    "wide": "宽",
    "1 MB buckets": "1 MB 的桶",
    "one bucket": "一个桶",
    "a step with .item()": "带 .item() 的一步",
    "a step without": "不带它的一步",
    "bytes each rank sends": "字节（每个进程发送）",
    # how a rate moves with a code (helpers.preprocessing.rate_trend)
    "rises": "上升",
    "falls": "下降",
    "goes up and down": "忽高忽低",
    # what the codes of day 4's categorical columns mean (helpers.preprocessing.CODES)
    "1 typical angina, 2 atypical angina, 3 non-anginal pain, 4 no symptoms": (
        "1 典型心绞痛，2 非典型心绞痛，3 非心绞痛性胸痛，4 无症状"
    ),
    "0 normal, 1 ST-T wave abnormality, 2 left ventricular hypertrophy": (
        "0 正常，1 ST-T 波异常，2 左心室肥厚"
    ),
    "1 up, 2 flat, 3 down": "1 上斜，2 平坦，3 下斜",
    "3 normal, 6 fixed defect, 7 reversible defect": "3 正常，6 固定缺损，7 可逆缺损",
    # tables' headers and labels, shown through helpers.show.table (the code keeps the English)
    "record every N": "每 N 个轮次记录一次",
    "student: recordings": "学生：记录次数",
    "student: remaining (s)": "学生：剩余时长 (s)",
    "you: recordings": "你：记录次数",
    "you: total (s)": "你：总时长 (s)",
    "you: remaining (s)": "你：剩余时长 (s)",
    "fix": "改法",
    "habit": "习惯",
    "habit costs (× the fix's time)": "习惯的耗时（改法耗时的 ×）",
    "steps, no sync": "训练若干步，不同步",
    "steps, .item() every step": "训练若干步，每步调用 .item()",
    "steps, if loss < ... every step": "训练若干步，每步判断 if loss < ...",
    "sum of 512 rows in a Python loop": "在 Python 循环中对 512 行求和",
    "sum of 512 rows, vectorised": "对 512 行向量化求和",
    "model on each row in a loop": "在循环中逐行调用模型",
    "model on all rows at once": "一次对所有行调用模型",
    "share": "占比",
    "device": "设备",
    "model": "模型",
    "setting": "设置",
    "time at the smallest size (ms)": "最小大小下的耗时 (ms)",
    "take-off (rows)": "起飞点（行）",
    "best GFLOP/s": "最高 GFLOP/s",
    "FLOPs per step": "每步 FLOPs",
    "bytes per step": "每步字节数",
    "FLOPs per byte": "每字节 FLOPs",
    "GFLOP/s reached": "达到的 GFLOP/s",
    "arithmetic hours": "计算耗时（小时）",
    "loading hours": "加载耗时（小时）",
    "ms per {epochs} epochs": "每 {epochs} 个轮次的 ms",
    "epochs to loss < {loss}": "损失降到 {loss} 以下所需的轮次",
    "learning rate {lr}": "学习率 {lr}",
    "learning rate {lr}, weight decay {decay}": "学习率 {lr}，权重衰减 {decay}",
    "lesson loop 4-10-3, {rows} rows": "课程循环 4-10-3，{rows} 行",
    "wide 4-512-512-3, {rows} rows": "宽网络 4-512-512-3，{rows} 行",
    "wide 4-512-512-3": "宽网络 4-512-512-3",
    "device busy share": "设备忙碌占比",
    "ms per step": "每步 ms",
    "loader": "数据加载设置",
    "epoch 1 (s)": "第 1 个轮次 (s)",
    "epoch 2 (s)": "第 2 个轮次 (s)",
    "busy (epoch 2)": "忙碌占比（第 2 个轮次）",
    "speed-up (epoch 2)": "加速比（第 2 个轮次）",
    "batch": "批量大小",
    "peak extra memory (MB)": "额外的峰值内存 (MB)",
    "rows per second": "每秒行数",
    "copies K": "副本数 K",
    "latency, fitted (µs)": "延迟，拟合值 (µs)",
    "95% interval (µs)": "95% 置信区间 (µs)",
    "bandwidth, fitted (GB/s)": "带宽，拟合值 (GB/s)",
    "typical miss (share of the time)": "典型偏差（占时间的比例）",
    "none": "无",
    "weights in float32 (MB)": "float32 权重 (MB)",
    "weights in bfloat16 (MB)": "bfloat16 权重 (MB)",
    "full width": "全宽",
    "half width": "半宽",
    "bound": "受限于",
    "arithmetic": "计算",
    "data loading": "数据加载",
    "lesson loop (model-epochs/s)": "课程循环（模型·轮次/s）",
    "one batched step (model-epochs/s)": "一个批量化的步（模型·轮次/s）",
    "batched ÷ lesson loop (median ratio)": "批量化 ÷ 课程循环（中位数之比）",
    # day 1's hardware.report() and card_line (the items stay the dictionaries' keys)
    "section": "部分",
    "item": "项",
    "value": "值",
    "CPU only": "仅 CPU",
    "none found": "未找到",
    "not built in": "未包含",
    "no": "否",
    "n/a": "不适用",
    "{size} (CPU {cpu} only)": "{size}（仅 CPU {cpu} 使用）",
    "{size} (shared by CPUs {cpus})": "{size}（CPU {cpus} 共用）",
    "unified: shared with the CPU": "统一内存：与 CPU 共用",
    "no CUDA, ROCm or MPS device: the course runs on the CPU": (
        "没有 CUDA、ROCm 或 MPS 设备：课程在 CPU 上运行"
    ),
    "size": "大小",
    "card": "显卡",
    "compute capability": "计算能力",
    "architecture": "架构",
    "tier": "级别",
    "why": "原因",
    "consumer": "消费级",
    "workstation": "工作站级",
    "data centre": "数据中心级",
    "gpu{n} memory used": "GPU {n} 已用显存",
    # day 8: what same_weights_verdict compares (distributed)
    "weights": "权重",
    "sums": "和",
    "the ring and all_reduce": "环形算法与 all_reduce ",
    "the ring and all_reduce in every group": "每个进程组中的环形算法与 all_reduce ",
    "the run that lost a worker and the undisturbed one": "丢失一个 worker 的运行与未受干扰的运行",
    "the 8 stacked copies and the 8 trained alone": "堆叠的 8 个副本与单独训练的 8 个模型",
    "sweep on {device}": "在 {device} 上扫描",
    "batch sizes": "批量大小",
    "loader settings": "数据加载设置",
    "learning rates": "学习率",
    "models per launch": "每次启动的模型数",
    "habits": "习惯",
    "precision": "精度",
    "widths": "宽度",
    "not measured": "未测量",
    "full width, batch {batch}": "全宽，批量大小 {batch}",
    "half width, batch {batch}": "半宽，批量大小 {batch}",
    "local rank": "本地进程编号",
    "world size": "进程总数",
    "process id": "进程 ID",
    "host": "主机",
    "backend": "通信后端",
    "restart": "重启次数",
    "in order": "原顺序",
    "shuffled, epoch {n}": "打乱后，第 {n} 个轮次",
    "processes": "进程数",
    "tensor (bytes)": "张量（字节）",
    "sent by each rank (counted)": "每个 rank 发送的字节（计数）",
    "2(N-1)/N × tensor": "2(N-1)/N × 张量",
    "largest difference from dist.all_reduce": "与 dist.all_reduce 的最大差异",
    "wide network, ms per step": "宽网络，每步 ms",
    "default buckets": "默认的桶",
    "ms per step, 1 process": "每步 ms，1 个进程",
    "ms per step, {n} processes": "每步 ms，{n} 个进程",
    "speed-up": "加速比",
    "efficiency": "效率",
    "wide, strong": "宽网络，强扩展",
    "wide, weak": "宽网络，弱扩展",
    "small, strong": "小网络，强扩展",
    "wide network ({mb} MB float32), N = {n}": "宽网络（{mb} MB float32），N = {n}",
    "1B parameters (2 GB bf16), N = {n}": "10 亿参数（2 GB bf16），N = {n}",
    "1B parameters (2 GB bf16), N = {n}, {m} machines": (
        "10 亿参数（2 GB bf16），N = {n}，{m} 台机器"
    ),
    "{link} ({bandwidth} GB/s, stated)": "{link}（{bandwidth} GB/s，标称）",
    "GB per GPU": "每块 GPU 的 GB",
    "mixed precision + Adam": "混合精度 + Adam",
    "float32 + SGD with momentum": "float32 + 带动量的 SGD",
    "DDP (nothing sharded)": "DDP（不分片）",
    "ZeRO-1 (optimizer states)": "ZeRO-1（分片优化器状态）",
    "ZeRO-2 (+ gradients)": "ZeRO-2（再加梯度）",
    "ZeRO-3 / FSDP (+ weights)": "ZeRO-3 / FSDP（再加权重）",
    "thing": "对象",
    "a function": "一个函数",
    "a lambda": "一个 lambda",
    "an object with __call__": "类中定义了 __call__ 的对象",
    "a number": "一个数字",
    "a list": "一个列表",
    "attribute": "属性",
    "kind": "种类",
    "parameter": "参数",
    "buffer": "缓冲区",
    "plain tensor": "普通张量",
    "device after .to()": ".to() 之后所在的设备",
    "in parameters()": "在 parameters() 中",
    "in state_dict()": "在 state_dict() 中",
    "layer": "层",
    "type": "类型",
    "output shape": "输出形状",
    "dtype": "数据类型（dtype）",
    "missing": "缺失值个数",
    "distinct values": "不同取值的个数",
    "train mean": "训练集均值",
    "train std": "训练集标准差",
    "test mean": "测试集均值",
    "test std": "测试集标准差",
    "column": "列",
    "disease rate per code": "各编码的患病率",
    "the rate, as the code grows": "编码增大时患病率的走向",
    "accuracy": "准确率",
    "logistic regression": "逻辑回归",
    "MLP ({epochs} epochs on {device})": "MLP（在 {device} 上训练 {epochs} 个轮次）",
    "the MLP": "MLP",
    "a column missing": "缺了一列",
    "text in a numeric column": "数值列里有文本",
    "an empty frame": "空的 DataFrame",
    "cross-validation": "交叉验证",
    "this machine": "本机",
    "shape": "形状",
    "copies": "拷贝",
    "bytes": "字节",
    "Apple GPU (MPS), memory shared with the CPU": "Apple GPU（MPS），与 CPU 共用内存",
    "target: {target}": "目标：{target}",
    "model.to(target) returns the same module object": "model.to(target) 返回的是同一个模块对象",
    "the model's parameters are now on the target": "模型的参数现在在目标设备上",
    "x.to(target) returns a new tensor": "x.to(target) 返回一个新张量",
    "the new tensor is on the target": "新张量在目标设备上",
    "the old tensor has not moved": "原来的张量没有移动",
    "CPU memory, copy_ into a buffer": "CPU 内存，copy_ 进已有缓冲区",
    "CPU memory, clone() allocates": "CPU 内存，clone() 新分配缓冲区",
    "pageable -> GPU, copy_": "可分页内存 -> GPU，copy_",
    "pinned -> GPU, copy_": "锁页内存 -> GPU，copy_",
    "pinned -> GPU, copy_ non_blocking": "锁页内存 -> GPU，copy_ non_blocking",
    "pageable -> GPU, .to() allocates": "可分页内存 -> GPU，.to() 新分配缓冲区",
    "host -> MPS, copy_": "主机内存 -> MPS，copy_",
    "host -> MPS, .to() allocates": "主机内存 -> MPS，.to() 新分配缓冲区",
    "recordings": "记录次数",
    "remaining (s)": "剩余时长 (s)",
    "runs": "运行次数",
    "every 2": "每 2 个轮次记录一次",
    "every 5": "每 5 个轮次记录一次",
    "every 20": "每 20 个轮次记录一次",
    "every 200": "每 200 个轮次记录一次",
    "every 500": "每 500 个轮次记录一次",
    "every 1000": "每 1000 个轮次记录一次",
    "one run per interval": "每种间隔各跑一次",
    "shuffled rounds": "随机顺序的各轮",
    "fixes": "各种改法",
    "µs per epoch": "每个轮次的耗时 (µs)",
    "share of the epoch": "占轮次的比例",
    "arithmetic time": "算术时间",
    "time inside operators": "算子内耗时",
    "overhead (remaining)": "开销（其余部分）",
    "wall time": "实际耗时",
    "estimate": "估计值",
    "95% interval: low": "95% 置信区间：下限",
    "95% interval: high": "95% 置信区间：上限",
    "a: everything else (s per run)": "a：其余的一切（每次运行的 s）",
    "b: one recording inside the loop (µs)": "b：循环中的一次记录（µs）",
    "bend across the measured range (ms)": "测量范围内的弯曲（ms）",
    "phase": "阶段",
    "lesson epoch": "课程的一个轮次",
    "wide network, {rows} rows": "宽网络，{rows} 行",
    "chain, eager": "运算链，eager 模式",
    "chain, compiled": "运算链，编译后",
    "lesson loop, .item() every {n} epochs": "课程循环，每 {n} 个轮次调用一次 .item()",
    "losses kept on the device": "损失留在设备上",
    "hand-written step": "手写的训练步",
    "hand-written step, torch.compile": "手写的训练步，torch.compile",
    "hand-written step, CUDA graphs": "手写的训练步，CUDA 图",
    "amortised: {n} epochs per compiled call": "摊销（每次编译调用跑 {n} 个轮次）",
    "median (s)": "中位数 (s)",
    "epochs per second": "每秒轮次数",
    "speed-up over the lesson loop (median of the rounds)": "相对课程循环的加速比（各轮的中位数）",
    "middle half of the rounds": "各轮的中间一半",
    "compile, cold cache (s)": "编译，冷缓存 (s)",
    "compile, warm cache (s)": "编译，热缓存 (s)",
    "{n} epochs, cold cache (s)": "{n} 个轮次，冷缓存 (s)",
    "{n} epochs, warm cache (s)": "{n} 个轮次，热缓存 (s)",
    "break-even, cold (epochs)": "回本点，冷缓存（轮次）",
    "break-even, warm (epochs)": "回本点，热缓存（轮次）",
    "1. without the profiler, no recordings (3 runs)": "1. 不开性能分析器，不记录（3 次运行）",
    "2. one {n}-epoch run per interval, fastest": "2. 每种间隔各跑一次 {n} 个轮次，最快的",
    "2. one {n}-epoch run per interval, slowest": "2. 每种间隔各跑一次 {n} 个轮次，最慢的",
    "5. `a` per epoch, from the straight line": "5. 每个轮次的 `a`，来自拟合的直线",
    "8. 'never', median of section 3's rounds": "8. “从不记录”，第 3 节各轮的中位数",
    "9. the lesson loop, every 100 epochs, median": "9. 课程循环，每 100 个轮次记录一次，中位数",
    "lesson loop, .item() every epoch": "课程循环，每个轮次调用一次 .item()",
    "hand-written step, amortised, {n} epochs per call": (
        "手写的训练步，摊销，每次调用跑 {n} 个轮次"
    ),
}
