<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>Figures</name>
    <message>
        <location filename="../core/figures.py" line="23"/>
        <source>image</source>
        <translation>图像</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="24"/>
        <source>kernel</source>
        <translation>卷积核</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="25"/>
        <source>NumPy</source>
        <translation>NumPy</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="26"/>
        <source>JAX first call</source>
        <translation>JAX 首次调用</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="27"/>
        <source>JAX steady</source>
        <translation>JAX 稳定耗时</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="28"/>
        <source>speedup</source>
        <translation>加速比</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="29"/>
        <source>transfers</source>
        <translation>数据传输</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="30"/>
        <source>max abs diff</source>
        <translation>最大绝对误差</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="31"/>
        <source>device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="32"/>
        <source>JAX</source>
        <translation>JAX</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="36"/>
        <source>includes compilation</source>
        <translation>含编译时间</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="37"/>
        <source>program loaded from the compilation cache</source>
        <translation>程序取自编译缓存</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="40"/>
        <source>already compiled</source>
        <translation>已编译</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="48"/>
        <source>{size} × {size}, sigma {sigma}</source>
        <translation>{size} × {size}，sigma {sigma}</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="53"/>
        <source>separable ({size} + {size} taps)</source>
        <translation>可分离（{size} + {size} 次采样）</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="81"/>
        <source>{diff} ({levels} of 255 levels), within {tolerance}</source>
        <translation>{diff}（{levels} 个 8 位灰度级），在 {tolerance} 以内</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="83"/>
        <source>{diff} ({levels} of 255 levels), NOT within {tolerance}</source>
        <translation>{diff}（{levels} 个 8 位灰度级），超出 {tolerance}</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="115"/>
        <source>median of {count}</source>
        <translation>{count} 次的中位数</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="116"/>
        <source>NumPy ÷ JAX steady</source>
        <translation>NumPy ÷ JAX 稳定耗时</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="117"/>
        <source>to device {to}, from device {back}</source>
        <translation>传入设备 {to}，传回主机 {back}</translation>
    </message>
    <message>
        <location filename="../core/figures.py" line="135"/>
        <source>unavailable: {reason}</source>
        <translation>不可用：{reason}</translation>
    </message>
</context>
<context>
    <name>FiguresPanel</name>
    <message>
        <location filename="../ui/figures_panel.py" line="128"/>
        <source>Figures</source>
        <translation>测量数据</translation>
    </message>
    <message>
        <location filename="../ui/figures_panel.py" line="138"/>
        <source>Time per blur, log scale</source>
        <translation>每次模糊的耗时（对数刻度）</translation>
    </message>
    <message>
        <location filename="../ui/figures_panel.py" line="199"/>
        <source>Out of date: {reason}</source>
        <translation>已过期：{reason}</translation>
    </message>
</context>
<context>
    <name>FileProblem</name>
    <message>
        <location filename="../ui/worker.py" line="152"/>
        <source>unexpected error: {reason}</source>
        <translation>意外错误：{reason}</translation>
    </message>
    <message>
        <location filename="../core/photo.py" line="77"/>
        <source>this kind of image is not supported: {reason}</source>
        <translation>不支持此类图像：{reason}</translation>
    </message>
    <message>
        <location filename="../core/photo.py" line="83"/>
        <source>the image is too large to open safely (over {limit} pixels)</source>
        <translation>图像过大，无法安全打开（超过 {limit} 像素）</translation>
    </message>
    <message>
        <location filename="../core/photo.py" line="90"/>
        <source>this is not an image file BlurApp can read</source>
        <translation>这不是 BlurApp 能读取的图像文件</translation>
    </message>
    <message>
        <location filename="../core/photo.py" line="94"/>
        <source>there is not enough memory to open this image</source>
        <translation>内存不足，无法打开此图像</translation>
    </message>
    <message>
        <location filename="../core/photo.py" line="102"/>
        <source>the file is damaged or not a valid image ({reason})</source>
        <translation>文件已损坏或不是有效的图像（{reason}）</translation>
    </message>
    <message>
        <location filename="../core/photo.py" line="106"/>
        <source>the image has no pixels</source>
        <translation>图像没有像素</translation>
    </message>
    <message>
        <location filename="../core/photo.py" line="138"/>
        <source>the image is {width} × {height} pixels ({megapixels} MP); blurring it needs about {needed} GB of memory, but only {available} GB is available</source>
        <translation>图像为 {width} × {height} 像素（{megapixels} 百万像素）；模糊它约需 {needed} GB 内存，但只有 {available} GB 可用</translation>
    </message>
    <message>
        <location filename="../core/photo.py" line="155"/>
        <source>this is a folder, not an image file</source>
        <translation>这是文件夹，不是图像文件</translation>
    </message>
    <message>
        <location filename="../core/photo.py" line="158"/>
        <source>no such file</source>
        <translation>文件不存在</translation>
    </message>
    <message>
        <location filename="../core/photo.py" line="160"/>
        <source>the file is empty</source>
        <translation>文件为空</translation>
    </message>
    <message>
        <location filename="../core/photo.py" line="168"/>
        <source>the file is truncated (it ends before the image does)</source>
        <translation>文件不完整（在图像结束之前就结束了）</translation>
    </message>
    <message>
        <location filename="../core/photo.py" line="173"/>
        <source>permission denied</source>
        <translation>权限不足</translation>
    </message>
    <message>
        <location filename="../core/photo.py" line="174"/>
        <source>the file could not be read ({reason})</source>
        <translation>无法读取文件（{reason}）</translation>
    </message>
    <message>
        <location filename="../core/saving.py" line="45"/>
        <location filename="../core/saving.py" line="98"/>
        <source>this is a folder; give a file name</source>
        <translation>这是文件夹；请给出文件名</translation>
    </message>
    <message>
        <location filename="../core/saving.py" line="50"/>
        <location filename="../core/saving.py" line="103"/>
        <source>the folder {folder} does not exist</source>
        <translation>文件夹 {folder} 不存在</translation>
    </message>
    <message>
        <location filename="../core/saving.py" line="59"/>
        <source>cannot write in {folder}: {reason}</source>
        <translation>无法写入 {folder}：{reason}</translation>
    </message>
    <message>
        <location filename="../core/saving.py" line="76"/>
        <source>the file could not be written: {reason}</source>
        <translation>无法写入文件：{reason}</translation>
    </message>
    <message>
        <location filename="../core/saving.py" line="117"/>
        <source>unknown output format {extension}; use .png, .tif, .jpg or .npy</source>
        <translation>未知的输出格式 {extension}；请使用 .png、.tif、.jpg 或 .npy</translation>
    </message>
    <message>
        <location filename="../core/saving.py" line="150"/>
        <source>{format} cannot store this image: {reason}</source>
        <translation>{format} 无法保存此图像：{reason}</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../ui/main_window.py" line="82"/>
        <source>NumPy and JAX</source>
        <translation>NumPy 和 JAX</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="83"/>
        <source>NumPy only</source>
        <translation>仅 NumPy</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="84"/>
        <source>JAX only</source>
        <translation>仅 JAX</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="88"/>
        <source>2-D (tutorial)</source>
        <translation>二维（教程方法）</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="89"/>
        <source>Separable</source>
        <translation>可分离</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="92"/>
        <source>Blurred results</source>
        <translation>模糊结果</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="93"/>
        <location filename="../ui/main_window.py" line="875"/>
        <source>Original</source>
        <translation>原图</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="94"/>
        <location filename="../ui/main_window.py" line="880"/>
        <source>Difference</source>
        <translation>差异</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="126"/>
        <source>Images</source>
        <translation>图像</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="127"/>
        <source>All files</source>
        <translation>所有文件</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="281"/>
        <source>Kernel size in pixels: odd, so the kernel has a centre</source>
        <translation>卷积核尺寸（像素）：须为奇数，使卷积核有中心</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="282"/>
        <source>a&amp;uto</source>
        <translation>自动(&amp;U)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="283"/>
        <source>Choose the size from sigma: 2·ceil(3σ)+1</source>
        <translation>按 sigma 选择尺寸：2·ceil(3σ)+1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="303"/>
        <source>2-D: the tutorial&apos;s k × k taps. Separable: k taps along the rows, then k down the columns: the same blur in 2k taps instead of k².</source>
        <translation>二维：教程中的 k × k 次采样。可分离：先沿行 k 次，再沿列 k 次：以 2k 次代替 k² 次得到同样的模糊。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="316"/>
        <location filename="../ui/main_window.py" line="373"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="318"/>
        <source>Blur with the chosen engines (Ctrl+R)</source>
        <translation>用所选引擎进行模糊（Ctrl+R）</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="320"/>
        <location filename="../ui/main_window.py" line="374"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="321"/>
        <source>Stop the run in progress (Esc)</source>
        <translation>停止正在进行的运行（Esc）</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="332"/>
        <source>&amp;Kernel size</source>
        <translation>卷积核尺寸(&amp;K)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="333"/>
        <source>&amp;Sigma</source>
        <translation>Sigma(&amp;S)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="334"/>
        <location filename="../ui/main_window.py" line="377"/>
        <source>Kernel used</source>
        <translation>实际卷积核</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="335"/>
        <source>Algori&amp;thm</source>
        <translation>算法(&amp;T)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="336"/>
        <source>E&amp;ngines</source>
        <translation>引擎(&amp;N)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="337"/>
        <source>Sho&amp;w</source>
        <translation>显示(&amp;W)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="346"/>
        <source>Gaussian blur</source>
        <translation>高斯模糊</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="360"/>
        <source>Gaussian sigma in pixels</source>
        <translation>高斯 sigma（像素）</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="362"/>
        <source>Kernel size</source>
        <translation>卷积核尺寸</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="363"/>
        <source>Automatic kernel size</source>
        <translation>自动卷积核尺寸</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="364"/>
        <source>Sigma</source>
        <translation>Sigma</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="365"/>
        <source>Sigma slider</source>
        <translation>Sigma 滑块</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="366"/>
        <source>Algorithm</source>
        <translation>算法</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="367"/>
        <source>Engines</source>
        <translation>引擎</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="367"/>
        <source>Which engines a run uses</source>
        <translation>一次运行使用哪些引擎</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="370"/>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="371"/>
        <source>What the panes show: results, original or difference</source>
        <translation>窗格显示的内容：结果、原图或差异</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="378"/>
        <source>The kernel size a run will use</source>
        <translation>运行时将使用的卷积核尺寸</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="415"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="417"/>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="419"/>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="421"/>
        <source>&amp;Save Results…</source>
        <translation>保存结果(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="424"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="426"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="428"/>
        <source>&amp;Copy Selected Image</source>
        <translation>复制所选图像(&amp;C)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="431"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="432"/>
        <source>Zoom &amp;In</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="438"/>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="443"/>
        <source>&amp;Fit to Window</source>
        <translation>适应窗口(&amp;F)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="446"/>
        <source>&amp;Actual Size (100%)</source>
        <translation>实际大小 (100%)(&amp;A)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="451"/>
        <source>Select the Other &amp;Pane</source>
        <translation>选择另一个窗格(&amp;P)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="464"/>
        <location filename="../ui/main_window.py" line="465"/>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="470"/>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="473"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="475"/>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="479"/>
        <source>&amp;About BlurApp</source>
        <translation>关于 BlurApp(&amp;A)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="490"/>
        <source>Both panes share this zoom: Ctrl+0 fits, Ctrl+1 is 100%</source>
        <translation>两个窗格共用此缩放：Ctrl+0 适应窗口，Ctrl+1 为 100%</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="499"/>
        <source>Zoom {percent}</source>
        <translation>缩放 {percent}</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="550"/>
        <source>(auto, 2·ceil(3σ)+1 = {size})</source>
        <translation>（自动，2·ceil(3σ)+1 = {size}）</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="562"/>
        <source>Open Photo</source>
        <translation>打开照片</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="594"/>
        <source>Opening {name}…</source>
        <translation>正在打开 {name}…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="630"/>
        <source>Could not open the photo</source>
        <translation>无法打开照片</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="631"/>
        <source>Cannot Open Photo</source>
        <translation>无法打开照片</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="646"/>
        <source>Invalid Kernel</source>
        <translation>无效的卷积核</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="668"/>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="693"/>
        <source>NumPy %p%</source>
        <translation>NumPy %p%</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="695"/>
        <source>NumPy: {done} of {total} kernel taps</source>
        <translation>NumPy：已完成 {done} / {total} 次采样</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="697"/>
        <source>NumPy: starting…</source>
        <translation>NumPy：正在开始…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="702"/>
        <source>JAX: compiling and running…</source>
        <translation>JAX：正在编译并运行…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="754"/>
        <source>The run failed</source>
        <translation>运行失败</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="758"/>
        <source>Run Failed</source>
        <translation>运行失败</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="759"/>
        <source>The comparison failed: {reason}</source>
        <translation>对比失败：{reason}</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="766"/>
        <source>earlier run, out of date</source>
        <translation>较早的运行，已过期</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="783"/>
        <source>JAX {time} on {device}</source>
        <translation>JAX {time}，设备 {device}</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="788"/>
        <source>JAX unavailable</source>
        <translation>JAX 不可用</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="789"/>
        <source>Done: {figures}</source>
        <translation>完成：{figures}</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="833"/>
        <source>Open a photo: File ▸ Open (Ctrl+O), or drop one here</source>
        <translation>打开一张照片：文件 ▸ 打开（Ctrl+O），或拖放到此处</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="835"/>
        <source>The difference appears after a run with both engines</source>
        <translation>用两个引擎运行后显示差异</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="839"/>
        <source>{engine} could not run:</source>
        <translation>{engine} 无法运行：</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="856"/>
        <source>the parameters changed since this run; press Run</source>
        <translation>此次运行后参数已更改；请点击运行</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="859"/>
        <source>a later run has replaced results on screen; press Run</source>
        <translation>之后的运行已替换屏幕上的结果；请点击运行</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="869"/>
        <source>out of date</source>
        <translation>已过期</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="875"/>
        <source>grayscale</source>
        <translation>灰度</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="885"/>
        <source>identical outputs (all black)</source>
        <translation>输出完全相同（全黑）</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="888"/>
        <source>black = 0, white = {white} ({levels} of an 8-bit level), stretched to be seen</source>
        <translation>黑 = 0，白 = {white}（{levels} 个 8 位灰度级），已拉伸以便观察</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="896"/>
        <source>unavailable</source>
        <translation>不可用</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="900"/>
        <source>GPU when present, else CPU</source>
        <translation>有 GPU 时用 GPU，否则用 CPU</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="903"/>
        <source>not run yet: showing the original, press Run</source>
        <translation>尚未运行：显示原图，请点击运行</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="910"/>
        <source>compiled</source>
        <translation>已编译</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="911"/>
        <source>from cache</source>
        <translation>取自缓存</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="912"/>
        <source>already compiled</source>
        <translation>已编译</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="915"/>
        <source>steady {steady} · first call {first} ({how})</source>
        <translation>稳定 {steady} · 首次调用 {first}（{how}）</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="921"/>
        <source>separable</source>
        <translation>可分离</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="968"/>
        <source>Save Results to Folder</source>
        <translation>将结果保存到文件夹</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="979"/>
        <source>Replace Files?</source>
        <translation>替换文件？</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="980"/>
        <source>These files already exist in {folder}:</source>
        <translation>以下文件已存在于 {folder}：</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="982"/>
        <source>Replace them?</source>
        <translation>是否替换？</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="995"/>
        <source>Cannot Save Results</source>
        <translation>无法保存结果</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="999"/>
        <source>Saved {files} in {folder}</source>
        <translation>已将 {files} 保存到 {folder}</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1009"/>
        <source>Copied the {engine} image</source>
        <translation>已复制 {engine} 图像</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1057"/>
        <source>Clear Menu</source>
        <translation>清空菜单</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1093"/>
        <source>no photo</source>
        <translation>无照片</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1122"/>
        <source>About BlurApp</source>
        <translation>关于 BlurApp</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1125"/>
        <source>The same Gaussian blur with NumPy on the CPU and with JAX-jit on the GPU (or the CPU), side by side.</source>
        <translation>同一个高斯模糊，分别由 CPU 上的 NumPy 和 GPU（或 CPU）上的 JAX-jit 运行，并排对比。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="1129"/>
        <source>Warnings and errors are logged to:</source>
        <translation>警告和错误记录在：</translation>
    </message>
    <message>
        <location filename="../ui/app.py" line="105"/>
        <source>BlurApp is still running; the details are in the log.</source>
        <translation>BlurApp 仍在运行；详情见日志。</translation>
    </message>
    <message>
        <location filename="../ui/app.py" line="109"/>
        <source>Unexpected Error</source>
        <translation>意外错误</translation>
    </message>
</context>
<context>
    <name>ResultPane</name>
    <message>
        <location filename="../ui/image_pane.py" line="241"/>
        <source>{engine} image</source>
        <translation>{engine} 图像</translation>
    </message>
    <message>
        <location filename="../ui/image_pane.py" line="244"/>
        <source>{engine}: wheel or Ctrl +/− to zoom, drag or arrow keys to pan; both panes move together</source>
        <translation>{engine}：滚轮或 Ctrl +/− 缩放，拖动或方向键平移；两个窗格同步移动</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <location filename="../ui/main_window.py" line="154"/>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="156"/>
        <source>Menu</source>
        <translation>菜单</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="156"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="156"/>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="159"/>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location filename="../ui/main_window.py" line="167"/>
        <source>Tab moves through the parameters and the two panes; in a pane the arrow keys pan. Alt and an underlined letter jumps to a parameter.</source>
        <translation>Tab 键在参数和两个窗格之间移动；在窗格中用方向键平移。Alt 加带下划线的字母可跳到对应参数。</translation>
    </message>
</context>
<context>
    <name>TimingChart</name>
    <message>
        <location filename="../ui/figures_panel.py" line="71"/>
        <source>Timings appear after a run</source>
        <translation>运行后显示耗时</translation>
    </message>
</context>
</TS>
