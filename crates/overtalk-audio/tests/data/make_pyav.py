"""Makes the burst clips that need encoders Debian's ffmpeg CLI is not used for here:
AIFF, AIFF-C, CAF (PCM and ALAC), ALAC in M4A, MPEG-1 Layer II. Needs PyAV (pip install av
numpy; its wheels bundle FFmpeg). The signal is the one of make.sh: 44.1 kHz stereo, 1.0 s;
left a 1 kHz burst 0.300-0.600 s, right a 500 Hz burst 0.500-0.800 s, amplitude 0.5."""
import sys
import av
import numpy as np

RATE = 44100
t = np.arange(RATE) / RATE
left = 0.5 * np.sin(2 * np.pi * 1000 * t) * ((t >= 0.3) & (t <= 0.6))
right = 0.5 * np.sin(2 * np.pi * 500 * t) * ((t >= 0.5) & (t <= 0.8))
signal = np.stack([left, right]).astype(np.float32)


def encode(path, codec, container, **options):
    out = av.open(path, "w", format=container)
    stream = out.add_stream(codec, rate=RATE, options=options)
    stream.layout = "stereo"
    frame = av.AudioFrame.from_ndarray(signal, format="fltp", layout="stereo")
    frame.sample_rate = RATE
    resampler = av.AudioResampler(format=stream.format.name, layout="stereo", rate=RATE)
    for f in resampler.resample(frame) + resampler.resample(None):
        for packet in stream.encode(f):
            out.mux(packet)
    for packet in stream.encode(None):
        out.mux(packet)
    out.close()


encode("burst.aiff", "pcm_s16be", "aiff")
encode("burst.caf", "pcm_s16le", "caf")
encode("burst.alac.m4a", "alac", "ipod")
encode("burst.alac.caf", "alac", "caf")
encode("burst.mp2", "mp2", "mp2", b="128k")
print("PyAV", av.__version__, "FFmpeg", av.library_versions.get("libavcodec"))
