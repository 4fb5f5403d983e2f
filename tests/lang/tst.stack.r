              lang_work`lang_work_fn+OFF
              lang_work`main+OFF


              lang_work`lang_work_fn+OFF
              lang_work`main+OFF
                1
