<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>AboutDialog</name>
    <message>
        <location filename="../ui/dialogs.py" line="112"/>
        <source>About BlurApp</source>
        <translation>关于 BlurApp</translation>
    </message>
    <message>
        <location filename="../ui/dialogs.py" line="121"/>
        <source>The same Gaussian blur with NumPy on the CPU and with JAX-jit on the accelerator (or the CPU), side by side.</source>
        <translation>同一个高斯模糊，分别由 CPU 上的 NumPy 和加速器（或 CPU）上的 JAX-jit 运行，并排对比。</translation>
    </message>
    <message>
        <location filename="../ui/dialogs.py" line="125"/>
        <source>Warnings and errors are logged to:</source>
        <translation>警告和错误记录在：</translation>
    </message>
    <message>
        <location filename="../ui/dialogs.py" line="133"/>
        <source>&amp;Copy Versions</source>
        <translation>复制版本信息(&amp;C)</translation>
    </message>
    <message>
        <location filename="../ui/dialogs.py" line="135"/>
        <source>Copy the versions, to paste into a bug report</source>
        <translation>复制版本信息，以便粘贴到错误报告中</translation>
    </message>
</context>
<context>
    <name>BlurControls</name>
    <message>
        <location filename="../ui/side_panel.py" line="52"/>
        <source>Gaussian blur</source>
        <translation>高斯模糊</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="55"/>
        <source>Kernel size in pixels: odd, so the kernel has a centre</source>
        <translation>卷积核尺寸（像素）：须为奇数，使卷积核有中心</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="56"/>
        <source>a&amp;uto</source>
        <translation>自动(&amp;U)</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="57"/>
        <source>Choose the size from sigma: 2·ceil(3σ)+1</source>
        <translation>按 sigma 选择尺寸：2·ceil(3σ)+1</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="72"/>
        <source>2-D: the tutorial&apos;s k × k taps. Separable: k taps along the rows, then k down the columns: the same blur in 2k taps instead of k².</source>
        <translation>二维：教程中的 k × k 次采样。可分离：先沿行 k 次，再沿列 k 次：以 2k 次代替 k² 次得到同样的模糊。</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="76"/>
        <source>Blur in co&amp;lour</source>
        <translation>彩色模糊(&amp;L)</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="79"/>
        <source>Blur each of red, green and blue (three times the work). Off: the photo is blurred in grey, as in the tutorial.</source>
        <translation>分别模糊红、绿、蓝三个通道（工作量为三倍）。关闭时：照片按教程的做法以灰度模糊。</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="89"/>
        <source>Time {engine}</source>
        <translation>计时 {engine}</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="91"/>
        <source>The reference: every other engine is compared with it</source>
        <translation>参照：其他每个引擎都与它比较</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="103"/>
        <location filename="../ui/side_panel.py" line="161"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="105"/>
        <source>Blur with the chosen engines (Ctrl+R)</source>
        <translation>用所选引擎进行模糊（Ctrl+R）</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="107"/>
        <location filename="../ui/side_panel.py" line="162"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="108"/>
        <source>Stop the run in progress (Esc)</source>
        <translation>停止正在进行的运行（Esc）</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="120"/>
        <source>&amp;Kernel size</source>
        <translation>卷积核尺寸(&amp;K)</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="121"/>
        <source>&amp;Sigma</source>
        <translation>Sigma(&amp;S)</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="122"/>
        <location filename="../ui/side_panel.py" line="165"/>
        <source>Kernel used</source>
        <translation>实际卷积核</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="123"/>
        <source>Algori&amp;thm</source>
        <translation>算法(&amp;T)</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="124"/>
        <source>Colour</source>
        <translation>彩色</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="125"/>
        <source>E&amp;ngines</source>
        <translation>引擎(&amp;N)</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="126"/>
        <source>Sho&amp;w</source>
        <translation>显示(&amp;W)</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="148"/>
        <source>Gaussian sigma in pixels</source>
        <translation>高斯 sigma（像素）</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="150"/>
        <source>Kernel size</source>
        <translation>卷积核尺寸</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="151"/>
        <source>Automatic kernel size</source>
        <translation>自动卷积核尺寸</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="152"/>
        <source>Sigma</source>
        <translation>Sigma</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="153"/>
        <source>Sigma slider</source>
        <translation>Sigma 滑块</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="154"/>
        <source>Algorithm</source>
        <translation>算法</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="155"/>
        <source>Blur in colour</source>
        <translation>彩色模糊</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="158"/>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="159"/>
        <source>What the panes show: results, original or difference</source>
        <translation>窗格显示的内容：结果、原图或差异</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="166"/>
        <source>The kernel size a run will use</source>
        <translation>运行时将使用的卷积核尺寸</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="168"/>
        <source>Notes on the parameters</source>
        <translation>参数说明</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="175"/>
        <source>Time this engine in each run, beside the reference</source>
        <translation>每次运行时与参照一起为此引擎计时</translation>
    </message>
    <message>
        <location filename="../ui/side_panel.py" line="279"/>
        <source>A pane shows {engine}, so every run times it: choose another engine for the pane to untick it</source>
        <translation>有一个窗格显示 {engine}，因此每次运行都会为它计时：为该窗格选择其他引擎后才能取消勾选</translation>
    </message>
</context>
<context>
    <name>ClipDisplay</name>
    <message>
        <location filename="../ui/clip_bar.py" line="18"/>
        <source>Frame</source>
        <translation>帧</translation>
    </message>
    <message>
        <location filename="../ui/clip_bar.py" line="32"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location filename="../ui/clip_bar.py" line="34"/>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <location filename="../ui/clip_bar.py" line="37"/>
        <source>Play or pause the clip (Space)</source>
        <translation>播放或暂停片段（空格键）</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="287"/>
        <source>&amp;Clip</source>
        <translation>片段(&amp;C)</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="185"/>
        <source>&amp;Play/Pause</source>
        <translation>播放/暂停(&amp;P)</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="191"/>
        <source>P&amp;revious Frame</source>
        <translation>上一帧(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="197"/>
        <source>&amp;Next Frame</source>
        <translation>下一帧(&amp;N)</translation>
    </message>
    <message>
        <location filename="../app/clip_controller.py" line="83"/>
        <source>Opening {name}…</source>
        <translation>正在打开 {name}…</translation>
    </message>
    <message>
        <location filename="../app/clip_controller.py" line="100"/>
        <source>Could not open the clip</source>
        <translation>无法打开片段</translation>
    </message>
    <message>
        <location filename="../app/clip_controller.py" line="48"/>
        <source>Choosing each engine&apos;s batch size…</source>
        <translation>正在为每个引擎选择批大小…</translation>
    </message>
    <message>
        <location filename="../app/clip_controller.py" line="49"/>
        <source>Blurring {frames} frames with each engine…</source>
        <translation>正在用每个引擎模糊 {frames} 帧…</translation>
    </message>
    <message>
        <location filename="../app/clip_controller.py" line="50"/>
        <source>Timing {frames} frames with each engine…</source>
        <translation>正在用每个引擎计时 {frames} 帧…</translation>
    </message>
    <message>
        <location filename="../app/clip_controller.py" line="317"/>
        <source>Run Failed</source>
        <translation>运行失败</translation>
    </message>
    <message>
        <location filename="../app/clip_controller.py" line="381"/>
        <source>Cannot Read the Frame</source>
        <translation>无法读取该帧</translation>
    </message>
    <message>
        <location filename="../app/clip_controller.py" line="247"/>
        <source>The Clip Stopped</source>
        <translation>片段已停止</translation>
    </message>
</context>
<context>
    <name>ClipTimeline</name>
    <message>
        <location filename="../app/clip_timeline.py" line="240"/>
        <source>starting…</source>
        <translation>正在开始…</translation>
    </message>
    <message>
        <location filename="../app/clip_timeline.py" line="242"/>
        <source>{rate} frames/s · {dropped} dropped</source>
        <translation>{rate} 帧/秒 · 丢弃 {dropped} 帧</translation>
    </message>
    <message>
        <location filename="../app/clip_timeline.py" line="263"/>
        <source>{engine} {rate} frames/s</source>
        <translation>{engine} {rate} 帧/秒</translation>
    </message>
    <message>
        <location filename="../app/clip_timeline.py" line="272"/>
        <source>{faster} {ratio}× {slower}</source>
        <translation>{faster} 是 {slower} 的 {ratio}×</translation>
    </message>
    <message>
        <location filename="../app/clip_timeline.py" line="285"/>
        <source>frame {number}</source>
        <translation>第 {number} 帧</translation>
    </message>
    <message>
        <location filename="../app/clip_timeline.py" line="286"/>
        <source>frame {number} of {count}</source>
        <translation>第 {number} 帧，共 {count} 帧</translation>
    </message>
</context>
<context>
    <name>Engines</name>
    <message>
        <location filename="../core/engines/numpy_engine.py" line="250"/>
        <source>NumPy</source>
        <translation>NumPy</translation>
    </message>
    <message>
        <location filename="../core/engines/numpy_engine.py" line="258"/>
        <source>NumPy, tutorial loop</source>
        <translation>NumPy，教程中的循环</translation>
    </message>
    <message>
        <location filename="../core/engines/jax_engine.py" line="734"/>
        <source>JAX-jit</source>
        <translation>JAX-jit</translation>
    </message>
    <message>
        <location filename="../core/engines/jax_eager_engine.py" line="96"/>
        <source>JAX without jit</source>
        <translation>不用 jit 的 JAX</translation>
    </message>
    <message>
        <location filename="../core/engines/pallas_engine.py" line="80"/>
        <source>interpreted</source>
        <translation>解释执行</translation>
    </message>
    <message>
        <location filename="../core/engines/pallas_engine.py" line="81"/>
        <source>No TPU here: Pallas&apos;s interpreter runs the kernel as a program for this machine&apos;s processor, with the same result, but its times say nothing of the kernel on a chip.</source>
        <translation>此处没有 TPU：Pallas 的解释器把该内核作为本机处理器的程序运行，结果相同，但其耗时不能说明该内核在芯片上的表现。</translation>
    </message>
    <message>
        <location filename="../core/engines/pallas_engine.py" line="318"/>
        <source>JAX Pallas</source>
        <translation>JAX Pallas</translation>
    </message>
</context>
<context>
    <name>Figures</name>
    <message>
        <location filename="../core/report/figures.py" line="108"/>
        <source>image</source>
        <translation>图像</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="109"/>
        <source>kernel</source>
        <translation>卷积核</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="110"/>
        <source>NumPy</source>
        <translation>NumPy</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="111"/>
        <source>JAX first call</source>
        <translation>JAX 首次调用</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="112"/>
        <source>first call parts</source>
        <translation>首次调用的组成</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="113"/>
        <source>JAX steady</source>
        <translation>JAX 稳定耗时</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="114"/>
        <source>speedup</source>
        <translation>加速比</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="115"/>
        <source>end-to-end speedup</source>
        <translation>端到端加速比</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="116"/>
        <source>transfers</source>
        <translation>数据传输</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="117"/>
        <source>max abs diff</source>
        <translation>最大绝对误差</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="118"/>
        <source>device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="119"/>
        <source>JAX</source>
        <translation>JAX</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="120"/>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="121"/>
        <source>copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="122"/>
        <source>vs copy</source>
        <translation>相对复制</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="123"/>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="124"/>
        <source>vs compute</source>
        <translation>相对计算</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="125"/>
        <source>call</source>
        <translation>调用</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="126"/>
        <source>vs call</source>
        <translation>与调用相比</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="161"/>
        <source>includes compilation</source>
        <translation>含编译时间</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="162"/>
        <source>program loaded from the compilation cache</source>
        <translation>程序取自编译缓存</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="165"/>
        <source>already compiled</source>
        <translation>已编译</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="171"/>
        <source>compiled during the live preview</source>
        <translation>在实时预览中编译</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="174"/>
        <source>compiled during an earlier Run</source>
        <translation>在先前的运行中编译</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="177"/>
        <source>compiled during the sweep</source>
        <translation>在规模扫描中编译</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="178"/>
        <source>loaded from the compilation cache during the live preview</source>
        <translation>在实时预览中从编译缓存加载</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="181"/>
        <source>loaded from the compilation cache during an earlier Run</source>
        <translation>在先前的运行中从编译缓存加载</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="184"/>
        <source>loaded from the compilation cache during the sweep</source>
        <translation>在规模扫描中从编译缓存加载</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="300"/>
        <source>first call only</source>
        <translation>仅首次调用</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="304"/>
        <source>one sample of {number} calls</source>
        <translation>一个样本（连续 {number} 次调用的平均）</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="306"/>
        <source>one call</source>
        <translation>一次调用</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="433"/>
        <source>under 1×: quicker than the copy as it was timed, so no bound this time (a copy caught by another program, or a photo small enough to stay in the cache between calls)</source>
        <translation>低于 1×：比这次计时的复制还快，所以这次它不是下限（复制被其他程序打扰，或照片小到在两次调用之间一直留在缓存中）</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="455"/>
        <source>the CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="456"/>
        <source>the {device}</source>
        <translation>{device}</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="468"/>
        <source>{time} on {device}</source>
        <translation>{device} 上 {time}</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="474"/>
        <source>an empty jitted call on one number, waited for: the least a call takes</source>
        <translation>对一个数的空 jit 调用，等待其完成：一次调用最少所需的时间</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="485"/>
        <source>{engines}: the time of an empty call</source>
        <translation>{engines}：一次空调用的时间</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="489"/>
        <source>this photo is too small for {device} to matter: the time is the call itself</source>
        <translation>这张照片太小，{device} 发挥不了作用：耗时就是调用本身</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="508"/>
        <source>{time} on {device}, {rate} in a {size} × {size} matrix product</source>
        <translation>{device} 上 {time}，{size} × {size} 矩阵乘法达到 {rate}</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="514"/>
        <source>on its matrix unit; the blur runs on its vector unit</source>
        <translation>在其矩阵单元上；模糊运行在其向量单元上</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="527"/>
        <source>{count} multiply-adds a pixel at the device&apos;s float32 rate: the least they can take</source>
        <translation>每像素 {count} 次乘加，按该设备的 float32 速率：这些运算至少需要这么久</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="542"/>
        <source>{engines}: the time of the blur&apos;s multiply-adds at that rate</source>
        <translation>{engines}：以按该速率完成模糊的乘加所需的耗时为单位</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="547"/>
        <source>under 1×: quicker than the matrix product&apos;s rate as it was timed, so no bound this time (a product caught by another program, or one too small for the device&apos;s peak)</source>
        <translation>低于 1×：比这次计时的矩阵乘积速率还快，所以这次它不是下限（乘积被其他程序打扰，或矩阵太小，达不到设备的峰值）</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="654"/>
        <source>median of {count} rounds, middle half {range}</source>
        <translation>{count} 轮的中位数，中间一半在 {range}</translation>
    </message>
    <message>
        <location filename="../core/report/chart_bars.py" line="58"/>
        <source>JAX first call (live preview)</source>
        <translation>JAX 首次调用（实时预览）</translation>
    </message>
    <message>
        <location filename="../core/report/chart_bars.py" line="59"/>
        <source>JAX first call (earlier Run)</source>
        <translation>JAX 首次调用（先前的运行）</translation>
    </message>
    <message>
        <location filename="../core/report/chart_bars.py" line="60"/>
        <source>JAX first call (sweep)</source>
        <translation>JAX 首次调用（规模扫描）</translation>
    </message>
    <message>
        <location filename="../core/report/chart_bars.py" line="63"/>
        <source>JAX first call (compiled before)</source>
        <translation>JAX 首次调用（此前已编译）</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="207"/>
        <source>this Run&apos;s first call {own}</source>
        <translation>本次运行的首次调用 {own}</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="214"/>
        <source>cache hit</source>
        <translation>缓存命中</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="215"/>
        <source>cache miss</source>
        <translation>缓存未命中</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="216"/>
        <source>cache off</source>
        <translation>未用缓存</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="228"/>
        <source>= trace {tracing} + lower {lowering} + compile {compiling} ({cache}) + run {run} + other {other}; copies to and from the device {copies} besides</source>
        <translation>= 追踪 {tracing} + 降级 {lowering} + 编译 {compiling}（{cache}）+ 运行 {run} + 其他 {other}；另有与设备之间的数据传输 {copies}</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="352"/>
        <source>({levels} of {count} levels), within {tolerance}</source>
        <translation>（{count} 级中的 {levels} 级），在 {tolerance} 以内</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="354"/>
        <source>({levels} of {count} levels), NOT within {tolerance}</source>
        <translation>（{count} 级中的 {levels} 级），超出 {tolerance}</translation>
    </message>
    <message>
        <location filename="../core/spec.py" line="124"/>
        <source>{size} × {size}, sigma {sigma}</source>
        <translation>{size} × {size}，sigma {sigma}</translation>
    </message>
    <message>
        <location filename="../core/spec.py" line="129"/>
        <source>separable ({size} + {size} taps)</source>
        <translation>可分离（{size} + {size} 次采样）</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="259"/>
        <source>the {size} × {size} kernel reaches only {reach}σ from its centre, so sigma {sigma} is cut short and the blur looks boxy; {auto} × {auto} (auto) would reach 3σ</source>
        <translation>{size} × {size} 的卷积核离中心只有 {reach}σ，sigma {sigma} 被截断，模糊会像方框模糊；{auto} × {auto}（自动）可达 3σ</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="311"/>
        <source>median of {count} samples of {number} calls, middle half {low}–{high}</source>
        <translation>{count} 个样本（每个为连续 {number} 次调用的平均）的中位数，中间一半在 {low}–{high}</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="317"/>
        <source>median of {count}, middle half {low}–{high}</source>
        <translation>{count} 次的中位数，中间一半在 {low}–{high}</translation>
    </message>
    <message>
        <location filename="../core/report/clip_figures.py" line="28"/>
        <source>clip</source>
        <translation>片段</translation>
    </message>
    <message>
        <location filename="../core/report/clip_figures.py" line="29"/>
        <source>end to end</source>
        <translation>端到端</translation>
    </message>
    <message>
        <location filename="../core/report/clip_figures.py" line="30"/>
        <source>batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="395"/>
        <source>these times cannot be trusted</source>
        <translation>这些耗时不可信</translation>
    </message>
    <message>
        <location filename="../core/report/clip_figures.py" line="64"/>
        <source>timed over the {frames} frames that decoded: {problem}</source>
        <translation>仅对已解码的 {frames} 帧计时：{problem}</translation>
    </message>
    <message>
        <location filename="../core/report/clip_figures.py" line="75"/>
        <source>grey</source>
        <translation>灰度</translation>
    </message>
    <message>
        <location filename="../core/report/clip_figures.py" line="78"/>
        <source>1 frame from frame {start}, {rate} frames/s</source>
        <translation>从第 {start} 帧起共 1 帧，{rate} 帧/秒</translation>
    </message>
    <message>
        <location filename="../core/report/clip_figures.py" line="80"/>
        <source>{frames} frames from frame {start}, {rate} frames/s</source>
        <translation>从第 {start} 帧起共 {frames} 帧，{rate} 帧/秒</translation>
    </message>
    <message>
        <location filename="../core/report/clip_figures.py" line="97"/>
        <source>{time} a frame</source>
        <translation>每帧 {time}</translation>
    </message>
    <message>
        <location filename="../core/report/clip_figures.py" line="101"/>
        <source>median of {count} passes, middle half {low}–{high}</source>
        <translation>{count} 遍的中位数，中间一半在 {low}–{high}</translation>
    </message>
    <message>
        <location filename="../core/report/clip_figures.py" line="123"/>
        <source>({time} a frame, reading the clip and copies counted, the copies overlapping the blur)</source>
        <translation>（每帧 {time}，含读取片段与数据复制，复制与模糊重叠进行）</translation>
    </message>
    <message>
        <location filename="../core/report/clip_figures.py" line="129"/>
        <source>({time} a frame, reading the clip and copies counted)</source>
        <translation>（每帧 {time}，含读取片段与数据复制）</translation>
    </message>
    <message>
        <location filename="../core/report/clip_figures.py" line="151"/>
        <source>one frame a call</source>
        <translation>每次调用一帧</translation>
    </message>
    <message>
        <location filename="../core/report/clip_figures.py" line="153"/>
        <source>{size} frames a call</source>
        <translation>每次调用 {size} 帧</translation>
    </message>
    <message>
        <location filename="../core/report/clip_figures.py" line="160"/>
        <source>(tried {sizes} frames/s)</source>
        <translation>（已试：{sizes} 帧/秒）</translation>
    </message>
    <message>
        <location filename="../core/report/clip_figures.py" line="171"/>
        <source>(the blur alone)</source>
        <translation>（仅模糊本身）</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="406"/>
        <source>{time} on {device}, {bandwidth}</source>
        <translation>{device} 上 {time}，{bandwidth}</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="416"/>
        <source>the image read once and written once: the least any blur can take</source>
        <translation>图像读一次、写一次：任何模糊都至少需要这么久</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="429"/>
        <source>{engines}: the time of one copy of the image</source>
        <translation>{engines}：以复制一次图像的耗时为单位</translation>
    </message>
    <message>
        <location filename="../core/report/clip_figures.py" line="73"/>
        <location filename="../core/report/figures.py" line="588"/>
        <source>colour (R, G, B)</source>
        <translation>彩色（R、G、B）</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="641"/>
        <source>(the largest over the {channels} channels)</source>
        <translation>（{channels} 个通道中的最大值）</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="649"/>
        <source>NumPy ÷ JAX steady</source>
        <translation>NumPy ÷ JAX 稳定耗时</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="661"/>
        <source>copies to and from the device ({device}) included</source>
        <translation>含与设备（{device}）之间的数据传输</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="664"/>
        <source>the photo in {bands} bands, their copies overlapping the blur</source>
        <translation>照片分为 {bands} 个条带，其传输与模糊计算重叠</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="669"/>
        <source>to device {to}, from device {back}</source>
        <translation>传入设备 {to}，传回主机 {back}</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="699"/>
        <source>first call {time}</source>
        <translation>首次调用 {time}</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="701"/>
        <source>{speedup} NumPy&apos;s speed</source>
        <translation>NumPy 速度的 {speedup}</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="705"/>
        <source>max abs diff {difference}</source>
        <translation>最大绝对误差 {difference}</translation>
    </message>
    <message>
        <location filename="../core/report/figures.py" line="82"/>
        <source>unavailable: {reason}</source>
        <translation>不可用：{reason}</translation>
    </message>
    <message>
        <location filename="../core/measuring/contention.py" line="215"/>
        <source>the profiler recorded a trace while the calls were timed, which slows them: time them again without it</source>
        <translation>计时期间性能分析器在记录跟踪，这会使调用变慢：请不记录跟踪再计时一次</translation>
    </message>
    <message>
        <location filename="../core/measuring/contention.py" line="223"/>
        <source>timed while the profiler recorded, and another program was using the CPU</source>
        <translation>计时期间性能分析器在记录，且另一个程序正在占用 CPU</translation>
    </message>
    <message>
        <location filename="../core/measuring/contention.py" line="229"/>
        <source>another program was using the CPU</source>
        <translation>另一个程序正在占用 CPU</translation>
    </message>
    <message>
        <location filename="../core/measuring/contention.py" line="231"/>
        <source>timed while the profiler recorded</source>
        <translation>计时期间性能分析器在记录</translation>
    </message>
    <message>
        <location filename="../core/measuring/contention.py" line="233"/>
        <source>the times of the calls varied widely</source>
        <translation>各次调用的耗时差异很大</translation>
    </message>
    <message>
        <location filename="../core/measuring/contention.py" line="238"/>
        <source>{engine}&apos;s calls took {ratio}× their CPU time</source>
        <translation>{engine} 的调用耗时是其 CPU 时间的 {ratio}×</translation>
    </message>
    <message>
        <location filename="../core/measuring/contention.py" line="243"/>
        <source>other programs kept {used} of the {cores} cores busy</source>
        <translation>其他程序占用了 {cores} 个核心中的 {used} 个</translation>
    </message>
    <message>
        <location filename="../core/measuring/contention.py" line="249"/>
        <source>other programs kept {used} of the {cores} cores busy while the matrix product was timed</source>
        <translation>计时矩阵乘法时，其他程序占用了 {cores} 个核心中的 {used} 个</translation>
    </message>
    <message>
        <location filename="../core/measuring/contention.py" line="261"/>
        <source>the middle half of {engine}&apos;s calls spans {spread} of their median</source>
        <translation>{engine} 中间一半调用的耗时跨度为其中位数的 {spread}</translation>
    </message>
    <message>
        <location filename="../core/measuring/contention.py" line="267"/>
        <source>load {load} on {cores} cores</source>
        <translation>{cores} 个核心上的负载为 {load}</translation>
    </message>
    <message>
        <location filename="../core/measuring/sweep.py" line="512"/>
        <source>not within the sizes measured</source>
        <translation>在所测尺寸内没有</translation>
    </message>
    <message>
        <location filename="../core/measuring/sweep.py" line="514"/>
        <source>from the smallest size measured</source>
        <translation>从所测最小尺寸起</translation>
    </message>
    <message>
        <location filename="../core/measuring/sweep.py" line="515"/>
        <source>from {size}</source>
        <translation>从 {size} 起</translation>
    </message>
    <message>
        <location filename="../core/measuring/sweep.py" line="531"/>
        <source>{engine} faster than {reference}: steady {steady}</source>
        <translation>{engine} 比 {reference} 快：稳定调用{steady}</translation>
    </message>
    <message>
        <location filename="../core/measuring/sweep.py" line="533"/>
        <source>{engine} faster than {reference}: steady {steady}, end to end {end_to_end}</source>
        <translation>{engine} 比 {reference} 快：稳定调用{steady}，端到端{end_to_end}</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="475"/>
        <source>programs this session</source>
        <translation>本次会话的程序</translation>
    </message>
</context>
<context>
    <name>FiguresPanel</name>
    <message>
        <location filename="../ui/figures_panel.py" line="241"/>
        <source>Figures</source>
        <translation>测量数据</translation>
    </message>
    <message>
        <location filename="../ui/figures_panel.py" line="251"/>
        <source>Time per blur (ms)</source>
        <translation>每次模糊的耗时（毫秒）</translation>
    </message>
    <message>
        <location filename="../ui/figures_panel.py" line="500"/>
        <source>Out of date: {reason}</source>
        <translation>已过期：{reason}</translation>
    </message>
</context>
<context>
    <name>FileProblem</name>
    <message>
        <location filename="../app/jobs.py" line="258"/>
        <location filename="../app/clip_jobs.py" line="60"/>
        <source>unexpected error: {reason}</source>
        <translation>意外错误：{reason}</translation>
    </message>
    <message>
        <location filename="../core/media/photo.py" line="194"/>
        <location filename="../scale/tiled_read.py" line="249"/>
        <source>this kind of image is not supported: {reason}</source>
        <translation>不支持此类图像：{reason}</translation>
    </message>
    <message>
        <location filename="../core/media/photo_checks.py" line="141"/>
        <source>the image is too large to open safely (over {limit} pixels)</source>
        <translation>图像过大，无法安全打开（超过 {limit} 像素）</translation>
    </message>
    <message>
        <location filename="../core/media/photo_checks.py" line="149"/>
        <source>this is not an image file BlurApp can read</source>
        <translation>这不是 BlurApp 能读取的图像文件</translation>
    </message>
    <message>
        <location filename="../core/media/photo.py" line="203"/>
        <location filename="../core/media/photo.py" line="262"/>
        <source>there is not enough memory to open this image</source>
        <translation>内存不足，无法打开此图像</translation>
    </message>
    <message>
        <location filename="../core/media/photo_checks.py" line="132"/>
        <source>the file is damaged or not a valid image ({reason})</source>
        <translation>文件已损坏或不是有效的图像（{reason}）</translation>
    </message>
    <message>
        <location filename="../core/media/photo.py" line="211"/>
        <location filename="../core/media/clip_checks.py" line="34"/>
        <location filename="../scale/tiled_read.py" line="243"/>
        <source>the image has no pixels</source>
        <translation>图像没有像素</translation>
    </message>
    <message>
        <location filename="../core/media/photo_checks.py" line="58"/>
        <source>the image is {width} × {height} pixels ({megapixels} MP); blurring it needs about {needed} GB of memory, but only {available} GB is available</source>
        <translation>图像为 {width} × {height} 像素（{megapixels} 百万像素）；模糊它约需 {needed} GB 内存，但只有 {available} GB 可用</translation>
    </message>
    <message>
        <location filename="../core/media/photo_checks.py" line="78"/>
        <source>this is a folder, not an image file</source>
        <translation>这是文件夹，不是图像文件</translation>
    </message>
    <message>
        <location filename="../core/media/photo_checks.py" line="82"/>
        <location filename="../scale/zarr_store.py" line="144"/>
        <source>this is not a regular file</source>
        <translation>这不是普通文件</translation>
    </message>
    <message>
        <location filename="../core/media/photo_checks.py" line="84"/>
        <location filename="../scale/batch_plan.py" line="187"/>
        <source>no such file</source>
        <translation>文件不存在</translation>
    </message>
    <message>
        <location filename="../core/media/photo.py" line="178"/>
        <source>the file is empty</source>
        <translation>文件为空</translation>
    </message>
    <message>
        <location filename="../core/media/photo_checks.py" line="100"/>
        <source>the file cannot hold the image its header declares (it gives {counts} byte counts for {pieces} strips or tiles)</source>
        <translation>文件装不下其文件头声明的图像（{pieces} 个条带或图块只给出 {counts} 个字节数）</translation>
    </message>
    <message>
        <location filename="../core/media/photo_checks.py" line="112"/>
        <source>the file cannot hold the image its header declares ({empty} of its {pieces} strips or tiles hold no bytes)</source>
        <translation>文件装不下其文件头声明的图像（{pieces} 个条带或图块中有 {empty} 个没有任何字节）</translation>
    </message>
    <message>
        <location filename="../core/media/photo_checks.py" line="123"/>
        <location filename="../core/media/photo_checks.py" line="157"/>
        <source>the file is truncated (it ends before the image does)</source>
        <translation>文件不完整（在图像结束之前就结束了）</translation>
    </message>
    <message>
        <location filename="../core/media/photo_checks.py" line="162"/>
        <source>permission denied</source>
        <translation>权限不足</translation>
    </message>
    <message>
        <location filename="../core/media/photo_checks.py" line="163"/>
        <source>the file could not be read ({reason})</source>
        <translation>无法读取文件（{reason}）</translation>
    </message>
    <message>
        <location filename="../core/media/saving.py" line="226"/>
        <source>this is a folder; give a file name</source>
        <translation>这是文件夹；请给出文件名</translation>
    </message>
    <message>
        <location filename="../core/media/saving.py" line="231"/>
        <source>the folder {folder} does not exist</source>
        <translation>文件夹 {folder} 不存在</translation>
    </message>
    <message>
        <location filename="../core/media/saving.py" line="252"/>
        <source>this is not a regular file (a pipe, a device or a socket); give the name of a file to write</source>
        <translation>这不是普通文件（而是管道、设备或套接字）；请给出要写入的文件名</translation>
    </message>
    <message>
        <location filename="../core/media/saving.py" line="271"/>
        <source>the file name is too long for the file system; choose a shorter one</source>
        <translation>文件名对文件系统来说太长；请选择更短的名称</translation>
    </message>
    <message>
        <location filename="../core/media/saving.py" line="302"/>
        <source>this is the photo being blurred; BlurApp never writes over it, choose another name</source>
        <translation>这是正在模糊的照片；BlurApp 从不覆盖它，请选择其他名称</translation>
    </message>
    <message>
        <location filename="../core/media/saving.py" line="332"/>
        <source>unknown output format {extension}; use {accepted}</source>
        <translation>未知的输出格式 {extension}；请使用 {accepted}</translation>
    </message>
    <message>
        <location filename="../core/media/saving.py" line="86"/>
        <source>cannot write in {folder}: {reason}</source>
        <translation>无法写入 {folder}：{reason}</translation>
    </message>
    <message>
        <location filename="../core/media/saving.py" line="115"/>
        <location filename="../core/media/saving.py" line="277"/>
        <source>the file could not be written: {reason}</source>
        <translation>无法写入文件：{reason}</translation>
    </message>
    <message>
        <location filename="../core/media/saving.py" line="393"/>
        <source>{format} cannot store this image: {reason}</source>
        <translation>{format} 无法保存此图像：{reason}</translation>
    </message>
    <message>
        <location filename="../scale/tiled_read.py" line="142"/>
        <source>this is not a TIFF file, or it is damaged; only TIFF, BigTIFF and zarr images can be blurred in tiles ({reason})</source>
        <translation>这不是 TIFF 文件，或文件已损坏；只有 TIFF、BigTIFF 和 zarr 图像可以分块模糊（{reason}）</translation>
    </message>
    <message>
        <location filename="../scale/tiled_read.py" line="206"/>
        <source>this is not a zarr array BlurApp can read ({reason})</source>
        <translation>这不是 BlurApp 能读取的 zarr 数组（{reason}）</translation>
    </message>
    <message>
        <location filename="../scale/tiled.py" line="288"/>
        <source>an image blurred in tiles is written as {accepted}, not {extension}</source>
        <translation>分块模糊的图像只能写为 {accepted}，不能写为 {extension}</translation>
    </message>
    <message>
        <location filename="../scale/tiled_write.py" line="39"/>
        <source>there is not enough free space for it: it would take about {needed} GB, and {free} GB is free</source>
        <translation>磁盘空间不足：它约需 {needed} GB，而只有 {free} GB 可用</translation>
    </message>
    <message>
        <location filename="../scale/batch_plan.py" line="330"/>
        <source>this is one of the photos being blurred ({source}); BlurApp never writes over an input, choose another output folder</source>
        <translation>这是正在模糊的照片之一（{source}）；BlurApp 从不覆盖输入文件，请选择其他输出文件夹</translation>
    </message>
    <message>
        <location filename="../scale/batch_plan.py" line="342"/>
        <source>{other} is written here already; {source} was not blurred (rename one of them)</source>
        <translation>{other} 已写入此处；{source} 未被模糊（请重命名其中之一）</translation>
    </message>
    <message>
        <location filename="../scale/segment_sizes.py" line="44"/>
        <source>the file is damaged or not a valid image: {reason}</source>
        <translation>文件已损坏或不是有效的图像：{reason}</translation>
    </message>
    <message>
        <location filename="../scale/segment_sizes.py" line="166"/>
        <source>its {segment}s are {width} × {height} pixels, each decoded whole: one for each of this machine&apos;s {threads} threads needs about {needed} GB, and only {available} GB of memory is available</source>
        <translation>它的每个分块（{segment}）为 {width} × {height} 像素，须整块解码：本机 {threads} 个线程各解码一块约需 {needed} GB，而可用内存只有 {available} GB</translation>
    </message>
    <message>
        <location filename="../core/media/clip_saving.py" line="83"/>
        <source>a codec can be chosen for video only ({videos}), not {extension}</source>
        <translation>只有视频（{videos}）可以选择编码器，{extension} 不行</translation>
    </message>
    <message>
        <location filename="../core/media/saving.py" line="306"/>
        <source>this is the clip being blurred; BlurApp never writes over it, choose another name</source>
        <translation>这是正在模糊的片段；BlurApp 从不覆盖它，请选择其他名称</translation>
    </message>
    <message>
        <location filename="../core/media/clip_saving.py" line="111"/>
        <source>this FFmpeg has no video encoder named {codec} (it is PyAV {version}&apos;s)</source>
        <translation>此 FFmpeg 没有名为 {codec} 的视频编码器（它随 PyAV {version} 提供）</translation>
    </message>
    <message>
        <location filename="../core/media/clip_saving.py" line="145"/>
        <source>{format} keeps every frame in memory until it is written: {frames} frames need about {needed} GB and {available} GB is available; write a video (.mp4, .mkv) instead</source>
        <translation>{format} 在写入前会把每一帧都保存在内存中：{frames} 帧约需 {needed} GB，而只有 {available} GB 可用；请改为写入视频（.mp4、.mkv）</translation>
    </message>
    <message>
        <location filename="../core/media/clip_saving.py" line="190"/>
        <source>frame {frame} is an array of {shape}, not of the clip&apos;s {expected} (height × width × colours)</source>
        <translation>第 {frame} 帧是 {shape} 的数组，而不是片段的 {expected}（高 × 宽 × 颜色）</translation>
    </message>
    <message>
        <location filename="../core/media/clip_saving.py" line="210"/>
        <source>only {written} of the {count} frames of {source} were blurred; nothing was written</source>
        <translation>{source} 的 {count} 帧中只模糊了 {written} 帧；未写入任何内容</translation>
    </message>
    <message>
        <location filename="../core/media/clip_saving.py" line="223"/>
        <source>{stored} of the {written} frames blurred were stored; nothing was written</source>
        <translation>已模糊的 {written} 帧中只保存了 {stored} 帧；未写入任何内容</translation>
    </message>
    <message>
        <location filename="../core/media/saving.py" line="394"/>
        <source>{format} cannot store this clip: {reason}</source>
        <translation>{format} 无法保存此片段：{reason}</translation>
    </message>
    <message>
        <location filename="../core/media/clip_saving.py" line="383"/>
        <source>the clip has no frames</source>
        <translation>片段没有任何帧</translation>
    </message>
    <message>
        <location filename="../core/media/clip_video.py" line="35"/>
        <source>reading and writing video needs PyAV, which is not installed: {how}</source>
        <translation>读写视频需要 PyAV，但它尚未安装：{how}</translation>
    </message>
    <message>
        <location filename="../core/media/clip_video.py" line="102"/>
        <source>the file has no video stream (only {streams})</source>
        <translation>文件没有视频流（只有 {streams}）</translation>
    </message>
    <message>
        <location filename="../core/media/clip_video.py" line="119"/>
        <source>this is not a video BlurApp can read ({reason})</source>
        <translation>这不是 BlurApp 能读取的视频（{reason}）</translation>
    </message>
    <message>
        <location filename="../core/media/clip_video.py" line="190"/>
        <source>the clip is closed</source>
        <translation>片段已关闭</translation>
    </message>
    <message>
        <location filename="../core/media/clip_files.py" line="100"/>
        <source>this is not a clip BlurApp can read</source>
        <translation>这不是 BlurApp 能读取的片段</translation>
    </message>
    <message>
        <location filename="../core/media/clip_checks.py" line="39"/>
        <source>its frames are {width} × {height} pixels, too large to open safely (over {limit} pixels)</source>
        <translation>它的帧为 {width} × {height} 像素，过大，无法安全打开（超过 {limit} 像素）</translation>
    </message>
    <message>
        <location filename="../core/media/clip_checks.py" line="55"/>
        <source>the clip stops at frame {frame}: {reason}</source>
        <translation>片段在第 {frame} 帧处中断：{reason}</translation>
    </message>
    <message>
        <location filename="../core/media/clip_files.py" line="177"/>
        <source>this TIFF is a photo, not a stack: it has one page, or pages of different sizes</source>
        <translation>此 TIFF 是照片而不是图像栈：它只有一页，或各页尺寸不同</translation>
    </message>
    <message>
        <location filename="../core/media/clip_files.py" line="207"/>
        <source>this kind of image is not supported: BlurApp reads stacks of 8- or 16-bit unsigned integers or floats between 0 and 1, not {kind}</source>
        <translation>不支持此类图像：BlurApp 读取的图像栈须为 8 位或 16 位无符号整数，或 0 到 1 之间的浮点数，而不是 {kind}</translation>
    </message>
    <message>
        <location filename="../ui/camera.py" line="141"/>
        <source>the camera went away</source>
        <translation>摄像头已断开</translation>
    </message>
    <message>
        <location filename="../ui/camera.py" line="148"/>
        <source>the camera&apos;s frames changed size to {width} × {height}</source>
        <translation>摄像头的帧尺寸变为 {width} × {height}</translation>
    </message>
    <message>
        <location filename="../core/measuring/profiler_trace.py" line="58"/>
        <source>the profiler trace&apos;s folder must have a UTF-8 name (JAX&apos;s profiler writes no other)</source>
        <translation>性能分析跟踪的文件夹名必须是 UTF-8 编码（JAX 的性能分析器只能写入这样的文件夹）</translation>
    </message>
    <message>
        <location filename="../core/measuring/profiler_trace.py" line="69"/>
        <source>cannot make the folder for the profiler trace ({reason})</source>
        <translation>无法创建存放性能分析跟踪的文件夹（{reason}）</translation>
    </message>
    <message>
        <location filename="../core/measuring/profiler_trace.py" line="77"/>
        <source>cannot write the profiler trace in this folder</source>
        <translation>无法在此文件夹中写入性能分析跟踪</translation>
    </message>
    <message>
        <location filename="../core/measuring/profiler_trace.py" line="159"/>
        <source>cannot start the profiler trace ({reason})</source>
        <translation>无法开始性能分析跟踪（{reason}）</translation>
    </message>
    <message>
        <location filename="../core/measuring/profiler_trace.py" line="143"/>
        <location filename="../core/measuring/profiler_trace.py" line="178"/>
        <location filename="../core/measuring/profiler_trace.py" line="206"/>
        <source>cannot write the profiler trace ({reason})</source>
        <translation>无法写入性能分析跟踪（{reason}）</translation>
    </message>
    <message>
        <location filename="../core/media/containers.py" line="151"/>
        <source>reading HEIC and HEIF photos needs pillow-heif, which is not installed: {how}</source>
        <translation>读取 HEIC 和 HEIF 照片需要 pillow-heif，但它尚未安装：{how}</translation>
    </message>
    <message>
        <location filename="../core/media/camera_raw.py" line="29"/>
        <source>reading camera RAW files needs rawpy, which is not installed: {how}</source>
        <translation>读取相机 RAW 文件需要 rawpy，但它尚未安装：{how}</translation>
    </message>
    <message>
        <location filename="../core/media/camera_raw.py" line="62"/>
        <source>LibRaw cannot develop this RAW file: {reason}</source>
        <translation>LibRaw 无法冲洗此 RAW 文件：{reason}</translation>
    </message>
</context>
<context>
    <name>ImageView</name>
    <message>
        <location filename="../ui/image_view.py" line="207"/>
        <source>Detail at 100%</source>
        <translation>100% 细节</translation>
    </message>
    <message>
        <location filename="../ui/image_view.py" line="271"/>
        <source>Before</source>
        <translation>之前</translation>
    </message>
    <message>
        <location filename="../ui/image_view.py" line="271"/>
        <source>After</source>
        <translation>之后</translation>
    </message>
</context>
<context>
    <name>KernelSizeSpinBox</name>
    <message>
        <location filename="../ui/parameter_boxes.py" line="32"/>
        <source>kernel size {typed} is below the smallest, 1: using 1</source>
        <translation>卷积核大小 {typed} 小于最小值 1：使用 1</translation>
    </message>
    <message>
        <location filename="../ui/parameter_boxes.py" line="37"/>
        <source>kernel size {typed} is above the largest, {largest}: using {largest}</source>
        <translation>卷积核大小 {typed} 大于最大值 {largest}：使用 {largest}</translation>
    </message>
    <message>
        <location filename="../ui/parameter_boxes.py" line="41"/>
        <source>kernel sizes are odd, so the kernel has a centre: using {size}</source>
        <translation>卷积核大小须为奇数，以便有中心：使用 {size}</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../ui/menus.py" line="460"/>
        <source>Images</source>
        <translation>图像</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="461"/>
        <source>All files</source>
        <translation>所有文件</translation>
    </message>
    <message>
        <location filename="../ui/dialogs.py" line="89"/>
        <source>not loaded yet</source>
        <translation>尚未加载</translation>
    </message>
    <message>
        <location filename="../ui/dialogs.py" line="91"/>
        <source>device not known yet</source>
        <translation>设备尚未确定</translation>
    </message>
    <message>
        <location filename="../ui/dialogs.py" line="100"/>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="213"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="95"/>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="359"/>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="101"/>
        <source>Open &amp;Camera</source>
        <translation>打开摄像头(&amp;C)</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="106"/>
        <source>&amp;Save Results…</source>
        <translation>保存结果(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="222"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="229"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="425"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="432"/>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="116"/>
        <source>&amp;Copy Selected Image</source>
        <translation>复制所选图像(&amp;C)</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="238"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="242"/>
        <source>Zoom &amp;In</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="247"/>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="252"/>
        <source>&amp;Fit to Window</source>
        <translation>适应窗口(&amp;F)</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="257"/>
        <source>&amp;Actual Size (100%)</source>
        <translation>实际大小 (100%)(&amp;A)</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="122"/>
        <source>Select the Other &amp;Pane</source>
        <translation>选择另一个窗格(&amp;P)</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="128"/>
        <source>Panes One A&amp;bove the Other</source>
        <translation>窗格上下排列(&amp;B)</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="130"/>
        <source>Wide photos get more room one above the other; tall ones side by side</source>
        <translation>宽照片上下排列更大；高照片左右并排更大</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="137"/>
        <source>P&amp;resentation</source>
        <translation>演示模式(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="144"/>
        <source>&amp;Live Preview</source>
        <translation>实时预览(&amp;L)</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="151"/>
        <source>&amp;Detail at 100%</source>
        <translation>100% 细节(&amp;D)</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="158"/>
        <location filename="../ui/menus.py" line="274"/>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="164"/>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="170"/>
        <source>Record Profiler &amp;Trace…</source>
        <translation>录制性能分析跟踪(&amp;T)…</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="172"/>
        <source>Run, recording a JAX profiler trace of the steady calls into a folder, to open in Perfetto or TensorBoard</source>
        <translation>运行，并把稳定调用的 JAX 性能分析跟踪录制到一个文件夹中，可用 Perfetto 或 TensorBoard 打开</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="180"/>
        <source>Scaling &amp;Sweep…</source>
        <translation>规模扫描(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="295"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="203"/>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="299"/>
        <source>&amp;About BlurApp</source>
        <translation>关于 BlurApp(&amp;A)</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="482"/>
        <source>Record Profiler Trace in Folder</source>
        <translation>将性能分析跟踪录制到文件夹</translation>
    </message>
    <message>
        <location filename="../ui/window_layout.py" line="177"/>
        <source>Both panes share this zoom: Ctrl+0 fits, Ctrl+1 is 100%</source>
        <translation>两个窗格共用此缩放：Ctrl+0 适应窗口，Ctrl+1 为 100%</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="171"/>
        <source>Zoom {percent}</source>
        <translation>缩放 {percent}</translation>
    </message>
    <message>
        <location filename="../app/photo_controller.py" line="270"/>
        <source>opened in grey: there is not enough memory to blur it in colour</source>
        <translation>以灰度打开：内存不足，无法彩色模糊</translation>
    </message>
    <message>
        <location filename="../ui/tiled_blur.py" line="180"/>
        <source>Blurred by Blocks</source>
        <translation>已分块模糊</translation>
    </message>
    <message>
        <location filename="../ui/tiled_blur.py" line="183"/>
        <source>Cannot Blur by Blocks</source>
        <translation>无法分块模糊</translation>
    </message>
    <message>
        <location filename="../ui/window_display.py" line="361"/>
        <source>Nothing to Run</source>
        <translation>没有可运行的引擎</translation>
    </message>
    <message>
        <location filename="../ui/window_display.py" line="362"/>
        <source>Tick at least one engine to time.</source>
        <translation>请至少勾选一个要计时的引擎。</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="470"/>
        <source>Open Photo</source>
        <translation>打开照片</translation>
    </message>
    <message>
        <location filename="../app/photo_controller.py" line="102"/>
        <source>Opening {name}…</source>
        <translation>正在打开 {name}…</translation>
    </message>
    <message>
        <location filename="../app/photo_controller.py" line="284"/>
        <source>Could not open the photo</source>
        <translation>无法打开照片</translation>
    </message>
    <message>
        <location filename="../ui/window_display.py" line="297"/>
        <source>Cannot Open Photo</source>
        <translation>无法打开照片</translation>
    </message>
    <message>
        <location filename="../app/photo_controller.py" line="179"/>
        <source>The run stopped for the new parameters; press Run to time them</source>
        <translation>运行已因参数更改而停止；请点击运行为新参数计时</translation>
    </message>
    <message>
        <location filename="../app/photo_controller.py" line="188"/>
        <source>Live preview: one call per engine; press Run to time these parameters</source>
        <translation>实时预览：每个引擎调用一次；请点击运行为这些参数计时</translation>
    </message>
    <message>
        <location filename="../app/photo_controller.py" line="200"/>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../app/photo_controller.py" line="319"/>
        <source>The run failed</source>
        <translation>运行失败</translation>
    </message>
    <message>
        <location filename="../ui/window_display.py" line="348"/>
        <source>Run Failed</source>
        <translation>运行失败</translation>
    </message>
    <message>
        <location filename="../ui/window_display.py" line="349"/>
        <source>The comparison failed: {reason}</source>
        <translation>对比失败：{reason}</translation>
    </message>
    <message>
        <location filename="../ui/results_saving.py" line="32"/>
        <source>Save Results Made with Different Parameters?</source>
        <translation>保存用不同参数得到的结果？</translation>
    </message>
    <message>
        <location filename="../ui/results_saving.py" line="33"/>
        <source>The two results were not made with the same parameters:</source>
        <translation>两个结果不是用相同参数得到的：</translation>
    </message>
    <message>
        <location filename="../ui/results_saving.py" line="37"/>
        <source>Each file&apos;s name and description say which parameters made it. Save both?</source>
        <translation>每个文件的名称和说明都注明了所用参数。两个都保存吗？</translation>
    </message>
    <message>
        <location filename="../ui/results_saving.py" line="53"/>
        <source>Save keeps to the current results ({names}); Save All includes these.</source>
        <translation>“保存”只保存当前结果（{names}）；“全部保存”也包括这些。</translation>
    </message>
    <message>
        <location filename="../ui/results_saving.py" line="60"/>
        <source>None is current: Save All saves them as they are.</source>
        <translation>没有当前结果：“全部保存”按原样保存它们。</translation>
    </message>
    <message>
        <location filename="../ui/results_saving.py" line="66"/>
        <source>Save Out-of-Date Results?</source>
        <translation>保存已过期的结果？</translation>
    </message>
    <message>
        <location filename="../ui/results_saving.py" line="67"/>
        <source>These results are out of date:</source>
        <translation>以下结果已过期：</translation>
    </message>
    <message>
        <location filename="../ui/results_saving.py" line="106"/>
        <source>Save Results to Folder</source>
        <translation>将结果保存到文件夹</translation>
    </message>
    <message>
        <location filename="../ui/results_saving.py" line="116"/>
        <location filename="../ui/results_saving.py" line="141"/>
        <source>Cannot Save Results</source>
        <translation>无法保存结果</translation>
    </message>
    <message>
        <location filename="../ui/results_saving.py" line="126"/>
        <source>Replace Files?</source>
        <translation>替换文件？</translation>
    </message>
    <message>
        <location filename="../ui/results_saving.py" line="127"/>
        <source>These files already exist in {folder}:</source>
        <translation>以下文件已存在于 {folder}：</translation>
    </message>
    <message>
        <location filename="../ui/results_saving.py" line="131"/>
        <source>Replace them?</source>
        <translation>是否替换？</translation>
    </message>
    <message>
        <location filename="../ui/results_saving.py" line="148"/>
        <source>Saved {files} in {folder}</source>
        <translation>已将 {files} 保存到 {folder}</translation>
    </message>
    <message>
        <location filename="../ui/results_saving.py" line="165"/>
        <source>Copied the {engine} image</source>
        <translation>已复制 {engine} 图像</translation>
    </message>
    <message>
        <location filename="../ui/menus.py" line="550"/>
        <source>Clear Menu</source>
        <translation>清空菜单</translation>
    </message>
    <message>
        <location filename="../ui/window_display.py" line="278"/>
        <source>no photo</source>
        <translation>无照片</translation>
    </message>
    <message>
        <location filename="../ui/launch.py" line="186"/>
        <source>BlurApp is still running; the details are in the log.</source>
        <translation>BlurApp 仍在运行；详情见日志。</translation>
    </message>
    <message>
        <location filename="../ui/launch.py" line="190"/>
        <source>Unexpected Error</source>
        <translation>意外错误</translation>
    </message>
    <message>
        <location filename="../ui/launch.py" line="232"/>
        <source>Opening the TPU: the window follows in a few seconds…</source>
        <translation>正在打开 TPU：窗口将在几秒钟后出现…</translation>
    </message>
    <message>
        <location filename="../ui/undo.py" line="25"/>
        <source>Kernel Size</source>
        <translation>卷积核大小</translation>
    </message>
    <message>
        <location filename="../ui/undo.py" line="26"/>
        <source>Sigma</source>
        <translation>Sigma</translation>
    </message>
    <message>
        <location filename="../ui/undo.py" line="27"/>
        <source>Algorithm</source>
        <translation>算法</translation>
    </message>
    <message>
        <location filename="../ui/undo.py" line="28"/>
        <source>Colour</source>
        <translation>彩色</translation>
    </message>
    <message>
        <location filename="../ui/undo.py" line="43"/>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <location filename="../ui/camera.py" line="183"/>
        <source>Cannot Open the Camera</source>
        <translation>无法打开摄像头</translation>
    </message>
</context>
<context>
    <name>Presentation</name>
    <message>
        <location filename="../ui/presentation.py" line="93"/>
        <source>Leave Presentation</source>
        <translation>退出演示模式</translation>
    </message>
</context>
<context>
    <name>ProfilerTrace</name>
    <message>
        <location filename="../core/measuring/profiler_trace.py" line="94"/>
        <source>trace: nothing was written to {folder}</source>
        <translation>跟踪：没有向 {folder} 写入任何内容</translation>
    </message>
    <message>
        <location filename="../core/measuring/profiler_trace.py" line="97"/>
        <source>trace: {run_folder} (the steady calls; open {perfetto} in ui.perfetto.dev, or run: tensorboard --logdir {folder})</source>
        <translation>跟踪：{run_folder}（稳定调用；在 ui.perfetto.dev 中打开 {perfetto}，或运行：tensorboard --logdir {folder}）</translation>
    </message>
</context>
<context>
    <name>ResultPane</name>
    <message>
        <location filename="../ui/image_pane.py" line="59"/>
        <source>The engine this pane shows</source>
        <translation>此窗格显示的引擎</translation>
    </message>
    <message>
        <location filename="../ui/image_pane.py" line="106"/>
        <source>Engine of the {engine} pane</source>
        <translation>{engine} 窗格的引擎</translation>
    </message>
    <message>
        <location filename="../ui/image_pane.py" line="108"/>
        <source>{engine} image</source>
        <translation>{engine} 图像</translation>
    </message>
    <message>
        <location filename="../ui/image_pane.py" line="111"/>
        <source>{engine}: wheel or Ctrl +/− to zoom, drag or arrow keys to pan; both panes move together</source>
        <translation>{engine}：滚轮或 Ctrl +/− 缩放，拖动或方向键平移；两个窗格同步移动</translation>
    </message>
</context>
<context>
    <name>Session</name>
    <message>
        <location filename="../app/captions.py" line="57"/>
        <source>2-D (tutorial)</source>
        <translation>二维（教程方法）</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="58"/>
        <source>Separable</source>
        <translation>可分离</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="61"/>
        <source>Blurred results</source>
        <translation>模糊结果</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="62"/>
        <source>Original</source>
        <translation>原图</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="63"/>
        <source>Difference</source>
        <translation>差异</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="65"/>
        <source>Before/after</source>
        <translation>前后对比</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="68"/>
        <source>compiled</source>
        <translation>已编译</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="69"/>
        <source>from cache</source>
        <translation>取自缓存</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="70"/>
        <source>already compiled</source>
        <translation>已编译</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="152"/>
        <source>another photo is open</source>
        <translation>已打开另一张照片</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="158"/>
        <source>kernel size changed from {old} to {new} since this run</source>
        <translation>此次运行后卷积核尺寸已从 {old} 改为 {new}</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="166"/>
        <source>sigma changed from {old} to {new} since this run</source>
        <translation>此次运行后 sigma 已从 {old} 改为 {new}</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="172"/>
        <source>algorithm changed from {old} to {new} since this run</source>
        <translation>此次运行后算法已从 {old} 改为 {new}</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="182"/>
        <source>colour turned on since this run</source>
        <translation>此次运行后打开了彩色</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="184"/>
        <source>colour turned off since this run</source>
        <translation>此次运行后关闭了彩色</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="191"/>
        <source>a later run replaced other results</source>
        <translation>之后的运行替换了其他结果</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="194"/>
        <source>{reasons}; press Run</source>
        <translation>{reasons}；请按“运行”</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="259"/>
        <source>Opening {name}…</source>
        <translation>正在打开 {name}…</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="265"/>
        <source>Open a photo: File ▸ Open (Ctrl+O), or drop one here</source>
        <translation>打开一张照片：文件 ▸ 打开（Ctrl+O），或拖放到此处</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="272"/>
        <source>Choose another engine for this pane to see its difference from {reference}</source>
        <translation>为此窗格选择另一个引擎，以查看它与 {reference} 的差异</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="279"/>
        <source>The difference appears after a run with {reference} and {engine}</source>
        <translation>用 {reference} 和 {engine} 运行后显示差异</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="285"/>
        <source>{engine} could not run:</source>
        <translation>{engine} 无法运行：</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="300"/>
        <source>played: {figures}</source>
        <translation>播放时：{figures}</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="314"/>
        <source>grayscale</source>
        <translation>灰度</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="323"/>
        <source>Left: original, right: {engine}</source>
        <translation>左：原图，右：{engine}</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="329"/>
        <source>unavailable</source>
        <translation>不可用</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="333"/>
        <source>not run yet: the original on both sides, press Run</source>
        <translation>尚未运行：两侧均显示原图，请点击运行</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="337"/>
        <source>not run yet: showing the original, press Run</source>
        <translation>尚未运行：显示原图，请点击运行</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="345"/>
        <source>live: {time}, one call</source>
        <translation>实时：{time}，单次调用</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="351"/>
        <source>kernel zero-padded to {size}</source>
        <translation>卷积核以零填充至 {size}</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="356"/>
        <source>{rate} updates/s</source>
        <translation>每秒更新 {rate} 次</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="363"/>
        <source>timing…</source>
        <translation>正在计时…</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="365"/>
        <source>not timed: the run stopped</source>
        <translation>未计时：运行已停止</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="371"/>
        <source>steady {steady}</source>
        <translation>稳定 {steady}</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="385"/>
        <source>grey: Blur in colour is off</source>
        <translation>灰度：未勾选“彩色模糊”</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="508"/>
        <source>the TPU, opening: the window may not answer for a few seconds</source>
        <translation>TPU 正在打开：窗口可能有几秒钟没有响应</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="512"/>
        <source>the accelerator when present, else the CPU</source>
        <translation>有加速器时用加速器，否则用 CPU</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="312"/>
        <location filename="../app/captions.py" line="382"/>
        <source>colour</source>
        <translation>彩色</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="393"/>
        <source>compiling for {size}…</source>
        <translation>正在为 {size} 编译…</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="487"/>
        <location filename="../app/captions.py" line="494"/>
        <source>first call {first}</source>
        <translation>首次调用 {first}</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="380"/>
        <source>separable</source>
        <translation>可分离</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="404"/>
        <source>programs this session: {count}; last: {why}, compiled in {time}</source>
        <translation>本次会话的程序：{count} 个；最近一个：{why}，编译用时 {time}</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="408"/>
        <source>programs this session: {count}; last: {why}, loaded from the cache in {time}</source>
        <translation>本次会话的程序：{count} 个；最近一个：{why}，从缓存加载用时 {time}</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="426"/>
        <source>{why}, in the scaling sweep</source>
        <translation>{why}，在规模扫描中</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="435"/>
        <source>kernel {old} → {new}</source>
        <translation>卷积核 {old} → {new}</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="438"/>
        <source>algorithm {old} → {new}</source>
        <translation>算法 {old} → {new}</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="443"/>
        <source>image {old} → {new}</source>
        <translation>图像 {old} → {new}</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="447"/>
        <source>grey → colour</source>
        <translation>灰度 → 彩色</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="449"/>
        <source>colour → grey</source>
        <translation>彩色 → 灰度</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="452"/>
        <source>device {old} → {new}</source>
        <translation>设备 {old} → {new}</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="455"/>
        <source>the first of the session</source>
        <translation>本次会话的第一个</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="456"/>
        <source>the same program again</source>
        <translation>再次获取同一程序</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="468"/>
        <source>{engine}; last: {why} ({time}, {how})</source>
        <translation>{engine}；最近一个：{why}（{time}，{how}）</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="524"/>
        <source>identical outputs (all black)</source>
        <translation>输出完全相同（全黑）</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="527"/>
        <source>black = 0, white = {white} ({levels} of an 8-bit level), stretched to be seen</source>
        <translation>黑 = 0，白 = {white}（{levels} 个 8 位灰度级），已拉伸以便观察</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="535"/>
        <source>each pixel its largest over R, G and B</source>
        <translation>每个像素取 R、G、B 中的最大值</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="540"/>
        <source>out of date</source>
        <translation>已过期</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="548"/>
        <source>(auto, 2·ceil(3σ)+1 = {size})</source>
        <translation>（自动，2·ceil(3σ)+1 = {size}）</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="563"/>
        <source>earlier run, out of date</source>
        <translation>较早的运行，已过期</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="583"/>
        <source>{engine} {time} on {device}</source>
        <translation>{engine} {time}，设备 {device}</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="589"/>
        <source>{engine} unavailable</source>
        <translation>{engine} 不可用</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="591"/>
        <source>Done: {figures}</source>
        <translation>完成：{figures}</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="602"/>
        <source>timing the engines: {done} of {total} calls</source>
        <translation>正在为引擎计时：已完成 {done} / {total} 次调用</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="604"/>
        <source>timing %p%</source>
        <translation>计时 %p%</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="608"/>
        <source>{engine}: {done} of {total} kernel taps</source>
        <translation>{engine}：已完成 {done} / {total} 次采样</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="610"/>
        <source>{engine}: running…</source>
        <translation>{engine}：正在运行…</translation>
    </message>
    <message>
        <location filename="../app/captions.py" line="616"/>
        <source>sample photo ({name})</source>
        <translation>示例照片（{name}）</translation>
    </message>
    <message>
        <location filename="../app/pixel_info.py" line="48"/>
        <source>original</source>
        <translation>原图</translation>
    </message>
    <message>
        <location filename="../app/pixel_info.py" line="53"/>
        <source>{what} at x {x}, y {y}: {value}</source>
        <translation>{what} 于 x {x}，y {y}：{value}</translation>
    </message>
    <message>
        <location filename="../app/jobs.py" line="77"/>
        <source>reading the file</source>
        <translation>正在读取文件</translation>
    </message>
    <message>
        <location filename="../app/jobs.py" line="78"/>
        <source>making the picture to show</source>
        <translation>正在生成要显示的图像</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <location filename="../ui/dialogs.py" line="30"/>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location filename="../ui/dialogs.py" line="32"/>
        <source>Menu</source>
        <translation>菜单</translation>
    </message>
    <message>
        <location filename="../ui/dialogs.py" line="32"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location filename="../ui/dialogs.py" line="32"/>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <location filename="../ui/dialogs.py" line="35"/>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location filename="../ui/dialogs.py" line="44"/>
        <source>Tab moves through the parameters and the two panes; in a pane the arrow keys pan. Alt and an underlined letter jumps to a parameter.</source>
        <translation>Tab 键在参数和两个窗格之间移动；在窗格中用方向键平移。Alt 加带下划线的字母可跳到对应参数。</translation>
    </message>
</context>
<context>
    <name>SigmaSpinBox</name>
    <message>
        <location filename="../ui/parameter_boxes.py" line="92"/>
        <source>sigma {typed} is below the smallest, {smallest}: using {smallest}</source>
        <translation>sigma {typed} 小于最小值 {smallest}：使用 {smallest}</translation>
    </message>
    <message>
        <location filename="../ui/parameter_boxes.py" line="96"/>
        <source>sigma {typed} is above the largest, {largest}: using {largest}</source>
        <translation>sigma {typed} 大于最大值 {largest}：使用 {largest}</translation>
    </message>
</context>
<context>
    <name>SweepChart</name>
    <message>
        <location filename="../ui/sweep_chart.py" line="215"/>
        <source>{engine} break-even (steady)</source>
        <translation>{engine} 盈亏平衡点（稳定调用）</translation>
    </message>
    <message>
        <location filename="../ui/sweep_chart.py" line="216"/>
        <source>{engine} break-even (end to end)</source>
        <translation>{engine} 盈亏平衡点（端到端）</translation>
    </message>
    <message>
        <location filename="../ui/sweep_chart.py" line="242"/>
        <source>Press Run: the comparison runs on the photo at each size in turn, and each size is drawn here as it finishes.</source>
        <translation>点击运行：对比会依次在照片的各个尺寸上运行，每个尺寸完成后即绘制在此处。</translation>
    </message>
    <message>
        <location filename="../ui/sweep_chart.py" line="271"/>
        <source>Time per blur (ms, median of steady calls)</source>
        <translation>每次模糊的耗时（毫秒，稳定调用的中位数）</translation>
    </message>
    <message>
        <location filename="../ui/sweep_chart.py" line="288"/>
        <source>Speed-up over {reference} ({reference}&apos;s time ÷ the engine&apos;s)</source>
        <translation>相对 {reference} 的加速比（{reference} 的耗时 ÷ 该引擎的耗时）</translation>
    </message>
    <message>
        <location filename="../ui/sweep_chart.py" line="304"/>
        <source>Photo size (megapixels, log scale)</source>
        <translation>照片尺寸（百万像素，对数刻度）</translation>
    </message>
    <message>
        <location filename="../ui/sweep_chart.py" line="179"/>
        <source>copy of the photo</source>
        <translation>复制照片</translation>
    </message>
    <message>
        <location filename="../ui/sweep_chart.py" line="185"/>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <location filename="../ui/sweep_chart.py" line="186"/>
        <source>its multiply-adds at a matrix product&apos;s rate</source>
        <translation>按矩阵乘法速率完成其乘加</translation>
    </message>
    <message>
        <location filename="../ui/sweep_chart.py" line="406"/>
        <source>this photo</source>
        <translation>此照片</translation>
    </message>
    <message>
        <location filename="../ui/sweep_chart.py" line="178"/>
        <source>copy</source>
        <translation>复制</translation>
    </message>
</context>
<context>
    <name>SweepWindow</name>
    <message>
        <location filename="../ui/sweep_window.py" line="87"/>
        <source>Scaling Sweep</source>
        <translation>规模扫描</translation>
    </message>
    <message>
        <location filename="../ui/sweep_window.py" line="107"/>
        <source>The sweep runs from 0.1 MP up to this size. The photo is resampled up or down: an engine&apos;s time depends on how many pixels it blurs, not on what they show.</source>
        <translation>扫描从 0.1 百万像素一直到此尺寸。照片会被放大或缩小重采样：引擎的耗时取决于要模糊的像素数量，而与画面内容无关。</translation>
    </message>
    <message>
        <location filename="../ui/sweep_window.py" line="112"/>
        <source>&amp;Largest size:</source>
        <translation>最大尺寸(&amp;L)：</translation>
    </message>
    <message>
        <location filename="../ui/sweep_window.py" line="116"/>
        <location filename="../ui/sweep_window.py" line="234"/>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/sweep_window.py" line="118"/>
        <source>Save &amp;Picture…</source>
        <translation>保存图表(&amp;P)…</translation>
    </message>
    <message>
        <location filename="../ui/sweep_window.py" line="119"/>
        <source>Save &amp;CSV…</source>
        <translation>保存 CSV(&amp;C)…</translation>
    </message>
    <message>
        <location filename="../ui/sweep_window.py" line="120"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../app/sweep_state.py" line="122"/>
        <source>{photo}, {size} · kernel {kernel} · {engines}</source>
        <translation>{photo}，{size} · 卷积核 {kernel} · {engines}</translation>
    </message>
    <message>
        <location filename="../app/sweep_state.py" line="142"/>
        <source>Running…</source>
        <translation>正在运行…</translation>
    </message>
    <message>
        <location filename="../app/sweep_state.py" line="165"/>
        <source>Stopped after {count} sizes</source>
        <translation>已在完成 {count} 个尺寸后停止</translation>
    </message>
    <message>
        <location filename="../ui/sweep_window.py" line="234"/>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <location filename="../app/sweep_state.py" line="191"/>
        <source>{size} done</source>
        <translation>{size} 已完成</translation>
    </message>
    <message>
        <location filename="../app/sweep_state.py" line="201"/>
        <source>Done: {count} sizes</source>
        <translation>完成：{count} 个尺寸</translation>
    </message>
    <message>
        <location filename="../app/sweep_state.py" line="212"/>
        <source>The sweep failed</source>
        <translation>扫描失败</translation>
    </message>
    <message>
        <location filename="../app/sweep_state.py" line="249"/>
        <source>this photo</source>
        <translation>此照片</translation>
    </message>
    <message>
        <location filename="../app/sweep_state.py" line="252"/>
        <source>{engine} first call: {sizes}</source>
        <translation>{engine} 首次调用：{sizes}</translation>
    </message>
    <message>
        <location filename="../app/sweep_state.py" line="260"/>
        <source>Sweep Failed</source>
        <translation>扫描失败</translation>
    </message>
    <message>
        <location filename="../app/sweep_state.py" line="261"/>
        <source>The sweep stopped: {reason}</source>
        <translation>扫描已停止：{reason}</translation>
    </message>
    <message>
        <location filename="../ui/sweep_window.py" line="298"/>
        <source>Replace File?</source>
        <translation>替换文件？</translation>
    </message>
    <message>
        <location filename="../ui/sweep_window.py" line="299"/>
        <source>{name} already exists. Do you want to replace it?</source>
        <translation>{name} 已存在。是否替换？</translation>
    </message>
    <message>
        <location filename="../ui/sweep_window.py" line="311"/>
        <source>Save Sweep Picture</source>
        <translation>保存扫描图表</translation>
    </message>
    <message>
        <location filename="../ui/sweep_window.py" line="311"/>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <location filename="../ui/sweep_window.py" line="319"/>
        <source>Save Sweep as CSV</source>
        <translation>将扫描保存为 CSV</translation>
    </message>
    <message>
        <location filename="../ui/sweep_window.py" line="319"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <location filename="../ui/sweep_window.py" line="331"/>
        <source>Cannot Save</source>
        <translation>无法保存</translation>
    </message>
    <message>
        <location filename="../ui/sweep_window.py" line="333"/>
        <source>Saved {name}</source>
        <translation>已保存 {name}</translation>
    </message>
</context>
<context>
    <name>TiledBlurDialog</name>
    <message>
        <location filename="../ui/tiled_blur.py" line="59"/>
        <source>Blurring by Blocks</source>
        <translation>正在分块模糊</translation>
    </message>
    <message>
        <location filename="../ui/tiled_blur.py" line="61"/>
        <source>Blurring {name} by blocks into {output}…</source>
        <translation>正在将 {name} 分块模糊到 {output}…</translation>
    </message>
    <message>
        <location filename="../ui/tiled_blur.py" line="105"/>
        <source>Blurring by blocks into {output}: {done} of {total} blocks, {rate} MP/s</source>
        <translation>正在分块模糊到 {output}：已完成 {done} / {total} 块，{rate} MP/s</translation>
    </message>
    <message>
        <location filename="../ui/tiled_blur.py" line="119"/>
        <source>Wrote {output}: {width} × {height} ({megapixels} MP) in {seconds} s.</source>
        <translation>已写入 {output}：{width} × {height}（{megapixels} 百万像素），用时 {seconds} 秒。</translation>
    </message>
    <message>
        <location filename="../ui/tiled_blur.py" line="135"/>
        <source>The blur by blocks was cancelled.</source>
        <translation>分块模糊已取消。</translation>
    </message>
    <message>
        <location filename="../ui/tiled_blur.py" line="138"/>
        <source>Stopping after the blocks in hand…</source>
        <translation>正在处理完当前的块后停止…</translation>
    </message>
    <message>
        <location filename="../ui/tiled_blur.py" line="199"/>
        <source>Photo Too Large to Open</source>
        <translation>照片过大，无法打开</translation>
    </message>
    <message>
        <location filename="../ui/tiled_blur.py" line="200"/>
        <source>{problem}

BlurApp can still blur it with the current parameters by blocks, straight into a file, without opening it. Blur it to a file?</source>
        <translation>{problem}

BlurApp 仍可用当前参数分块模糊它，直接写入文件，而无需打开。是否模糊到文件？</translation>
    </message>
    <message>
        <location filename="../ui/tiled_blur.py" line="218"/>
        <source>Blur to File</source>
        <translation>模糊到文件</translation>
    </message>
    <message>
        <location filename="../ui/tiled_blur.py" line="220"/>
        <source>Tiled TIFF (*.tif *.tiff);;NumPy array (*.npy)</source>
        <translation>分块 TIFF (*.tif *.tiff);;NumPy 数组 (*.npy)</translation>
    </message>
    <message>
        <location filename="../ui/tiled_blur.py" line="233"/>
        <source>Replace File?</source>
        <translation>替换文件？</translation>
    </message>
    <message>
        <location filename="../ui/tiled_blur.py" line="234"/>
        <source>{name} already exists. Replace it?</source>
        <translation>{name} 已存在。是否替换？</translation>
    </message>
</context>
<context>
    <name>TimingChart</name>
    <message>
        <location filename="../ui/figures_panel.py" line="62"/>
        <source>Bar length is proportional to time. A bar with a break is too long to draw to scale; its time is printed beside it.</source>
        <translation>条形长度与耗时成正比。带断口的条形太长，无法按比例绘制；其耗时标在旁边。</translation>
    </message>
    <message>
        <location filename="../ui/figures_panel.py" line="122"/>
        <source>Timings appear after a run</source>
        <translation>运行后显示耗时</translation>
    </message>
</context>
</TS>
