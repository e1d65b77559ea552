# plugins/cupti
