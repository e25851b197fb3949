"""ns-3.37 beside wlansim: the C++ cell every case runs (`cell.cc`) and how it is compiled,
cached and run (`run.py`)."""
